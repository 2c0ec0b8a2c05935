// Plugin names as kube-scheduler spells them (pkg/scheduler/framework/plugins/names/names.go).

export const names = {
  PrioritySort: 'PrioritySort',
  NodeUnschedulable: 'NodeUnschedulable',
  NodeName: 'NodeName',
  TaintToleration: 'TaintToleration',
  NodeAffinity: 'NodeAffinity',
  NodePorts: 'NodePorts',
  NodeResourcesFit: 'NodeResourcesFit',
  VolumeBinding: 'VolumeBinding',
  PodTopologySpread: 'PodTopologySpread',
  InterPodAffinity: 'InterPodAffinity',
  DynamicResources: 'DynamicResources',
  DefaultPreemption: 'DefaultPreemption',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  ImageLocality: 'ImageLocality',
  DefaultBinder: 'DefaultBinder',
} as const;

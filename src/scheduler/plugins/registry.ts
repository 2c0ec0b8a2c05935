// The in-tree plugins, listed explicitly (plugins/registry.go NewInTreeRegistry).

import { Registry } from '../framework/registry.js';
import * as defaultBinder from './default-binder/index.js';
import * as defaultPreemption from './default-preemption/index.js';
import * as dynamicResources from './dynamic-resources/index.js';
import * as interPodAffinity from './inter-pod-affinity/index.js';
import * as imageLocality from './image-locality/index.js';
import * as nodeAffinity from './node-affinity/index.js';
import * as nodeName from './node-name/index.js';
import * as nodePorts from './node-ports/index.js';
import * as balancedAllocation from './node-resources-balanced-allocation/index.js';
import * as nodeResourcesFit from './node-resources-fit/index.js';
import * as nodeUnschedulable from './node-unschedulable/index.js';
import * as podTopologySpread from './pod-topology-spread/index.js';
import * as prioritySort from './priority-sort/index.js';
import * as taintToleration from './taint-toleration/index.js';
import * as volumeBinding from './volumebinding/index.js';

export function inTreeRegistry(): Registry {
  return new Registry([
    [prioritySort.NAME, prioritySort.create],
    [nodeUnschedulable.NAME, nodeUnschedulable.create],
    [nodeName.NAME, nodeName.create],
    [taintToleration.NAME, taintToleration.create],
    [nodeAffinity.NAME, nodeAffinity.create],
    [nodePorts.NAME, nodePorts.create],
    [nodeResourcesFit.NAME, nodeResourcesFit.create],
    [volumeBinding.NAME, volumeBinding.create],
    [podTopologySpread.NAME, podTopologySpread.create],
    [interPodAffinity.NAME, interPodAffinity.create],
    [dynamicResources.NAME, dynamicResources.create],
    [defaultPreemption.NAME, defaultPreemption.create],
    [balancedAllocation.NAME, balancedAllocation.create],
    [imageLocality.NAME, imageLocality.create],
    [defaultBinder.NAME, defaultBinder.create],
  ]);
}

// The identity of a node agent itself (not of the kubelets it hosts): its shared informers watch the cluster for all
// its nodes, which no system:node:<name> may do. A joined agent's certificate names it; component RBAC grants it.

export const AGENT_CN_PREFIX = 'system:winkube:node-agent:';
export const NODE_AGENTS_ORG = 'winkube:node-agents';

// Types of lts-node.mjs, for the TypeScript that imports it (tests).
export declare const SUPPORTED_MAJORS: readonly number[];
export declare const NODE_CACHE: string;
export declare class NodeUnavailableError extends Error {}
export declare function isSupported(version?: string): boolean;
export declare function ltsNode(wanted?: number | null): string;
export declare function envFor(node: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function relaunch(args: readonly string[]): void;

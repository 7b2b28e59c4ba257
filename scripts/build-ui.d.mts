/** Builds ui/ (under `root`, default the working directory) into `outdir`, emptied first; resolves with the file names written. */
export function buildUi(outdir: string, root?: string): Promise<string[]>;

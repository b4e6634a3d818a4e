/** The part of madge's programmatic API that `scripts/check-feature-cycles.ts` uses. */
declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to the base directory) with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string, config?: { fileExtensions?: string[] }): Promise<MadgeResult>;
}

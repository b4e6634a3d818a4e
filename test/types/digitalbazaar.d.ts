/**
 * The parts of Digital Bazaar's status-list packages that the credential tests use; the packages
 * ship JavaScript without type declarations.
 */
declare module '@digitalbazaar/bitstring' {
  export class Bitstring {
    constructor(options: { length: number } | { buffer: Uint8Array; leftToRightIndexing?: boolean });
    readonly length: number;
    get(position: number): boolean;
    static decodeBits(options: { encoded: string }): Promise<Uint8Array>;
  }
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
  export interface BitstringStatusList {
    readonly length: number;
    getStatus(index: number): boolean;
  }
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
  export interface StatusCheck {
    verified: boolean;
    error?: Error;
    results?: { verified: boolean; status: boolean; credentialStatus: Record<string, unknown> }[];
  }
  export function checkStatus(options: {
    credential: object;
    documentLoader: (url: string) => Promise<{ document: object }>;
    suite?: object;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<StatusCheck>;
}

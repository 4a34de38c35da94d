/**
 * The contract is checked with neither DOM nor Node types, because both the renderer (a
 * browser) and the service (Node) run it. These are the few web-platform globals it uses,
 * which both environments provide with the same meaning.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly hostname: string;
  readonly origin: string;
  readonly password: string;
  readonly username: string;
}

interface AbortSignal {
  readonly aborted: boolean;
}

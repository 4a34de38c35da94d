/**
 * The WebAssembly globals the sql.js engine uses (src/store/engine/). TypeScript declares them
 * only in its DOM library, and the service is checked without DOM types (it runs in Node), so
 * the few it needs are declared here as Node provides them.
 */
declare namespace WebAssembly {
  /** A compiled module: opaque to the code, passed from compile() to instantiate(). */
  type Module = object;
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  interface Memory {
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  var Memory: {
    prototype: Memory;
    new (descriptor: MemoryDescriptor): Memory;
  };
  type Imports = Record<string, Record<string, unknown>>;
  function compile(bytes: BufferSource): Promise<Module>;
  function instantiate(module: Module, imports?: Imports): Promise<Instance>;
}

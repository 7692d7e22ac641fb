import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import * as releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'

type EmscriptenOptions = NonNullable<CustomizeVariantOptions['emscriptenModule']>

/** WebAssembly pages are 64 KiB. */
const PAGE_BYTES = 64 * 1024

/** The memory the QuickJS build starts with (its data, its stack and the first of its heap); fixed by the build. */
export const ENGINE_BASE_BYTES = 16 * 1024 * 1024

/** A loaded engine and the WebAssembly memory it allocates from. */
export interface QuickJsEngine {
  module: QuickJSWASMModule
  memory: WebAssembly.Memory
  /** The `memoryLimitBytes` the engine's memory was bounded for. */
  memoryLimitBytes: number
}

/**
 * The engine's own console lines (an assertion when a runtime is freed with objects left, which spoils the engine and
 * is handled) are not the service's log. Emscripten reads `print` and `printErr`; the package's type leaves them out.
 */
const quiet: EmscriptenOptions = Object.assign({} as EmscriptenOptions, { print: () => undefined, printErr: () => undefined })

let compiled: Promise<WebAssembly.Module> | undefined

/** The QuickJS build compiled once per thread; each engine instantiates it with memory of its own. */
function compiledQuickJs(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const entry = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync')
    compiled = readFile(join(dirname(entry), 'emscripten-module.wasm')).then((bytes) => WebAssembly.compile(bytes))
    compiled.catch(() => {
      compiled = undefined
    })
  }
  return compiled
}

/**
 * Loads a QuickJS engine: the WebAssembly build of QuickJS (release, synchronous), instantiated with a memory that
 * cannot grow past the build's base plus `memoryLimitBytes`. That bound is what makes the memory limit hold: QuickJS's
 * own allocation limit does not count the size of blocks in this build (only one allocation larger than the limit
 * is refused), whereas a WebAssembly memory at its maximum makes every further allocation fail with QuickJS's
 * `out of memory`, native operations included. A worker keeps one engine and loads another when it is spoiled.
 *
 * @example
 * ```ts
 * const engine = await loadQuickJs(64 * 1024 * 1024)
 * engine.memory.buffer.byteLength // 16 MB at first, never more than 16 MB + 64 MB
 * ```
 */
export async function loadQuickJs(memoryLimitBytes: number): Promise<QuickJsEngine> {
  const wasmModule = await compiledQuickJs()
  const memory = new WebAssembly.Memory({
    initial: ENGINE_BASE_BYTES / PAGE_BYTES,
    maximum: (ENGINE_BASE_BYTES + Math.ceil(memoryLimitBytes / PAGE_BYTES) * PAGE_BYTES) / PAGE_BYTES,
  })
  // The namespace's `default` is the variant under Node's ESM loader; the package's typings describe it one level
  // down (CommonJS), hence the check rather than a cast.
  const variant = (releaseSync as { default: unknown }).default as QuickJSSyncVariant | { default: QuickJSSyncVariant }
  const base = 'type' in variant ? variant : variant.default
  const module = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmModule, wasmMemory: memory, emscriptenModule: quiet }))
  return { module, memory, memoryLimitBytes }
}

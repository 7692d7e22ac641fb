// The part of autocannon's API the benches use (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string
      connections?: number
      duration?: number
      pipelining?: number
      headers?: Record<string, string>
      method?: string
    }
    interface Histogram {
      average: number
      mean: number
      p50: number
      p90: number
      p99: number
      max: number
    }
    interface Result {
      duration: number
      requests: Histogram & { total: number }
      latency: Histogram
      errors: number
      timeouts: number
      non2xx: number
    }
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): unknown
  export = autocannon
}

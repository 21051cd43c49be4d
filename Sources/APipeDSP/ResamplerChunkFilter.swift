/// A block filter in front of the polyphase stage: takes frames until a chunk is complete, then filters it.
///
/// Lets `Resampler` hold a prefilter of either FFT precision; it is called once per chunk
/// (thousands of frames), never per sample.
protocol ResamplerChunkFilter: Sendable {
    /// Output frames per channel of one `run`.
    var chunk: Int { get }
    /// Frames at the filter's rate consumed before an output frame is complete, at most.
    var latency: Int { get }
    /// Whether a chunk is complete and `run` must be called before the next `push`.
    var isFull: Bool { get }
    /// Appends interleaved input frames (zeros when `input` is nil) up to a complete chunk; returns frames taken.
    mutating func push(_ input: UnsafePointer<Float>?, frames: Int) -> Int
    /// Filters the complete chunk into `out` (`chunk` interleaved frames) and keeps the history.
    mutating func run(into out: UnsafeMutablePointer<Float>)
    /// Back to the start of a stream.
    mutating func reset()
}

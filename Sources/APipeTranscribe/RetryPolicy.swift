/// How often and how long to wait before trying a retryable failure again.
///
/// Delay before retry `n` (0-based) is `base * 2^n`, capped at `maxDelay`, scaled by a random
/// factor in `[1 - jitter, 1]` so that parallel jobs do not retry in lockstep. A server's
/// `Retry-After` replaces the computed delay (capped at `maxRetryAfter`).
public struct RetryPolicy: Sendable, Equatable {
    public var retries: Int
    public var baseDelay: Double
    public var maxDelay: Double
    public var jitter: Double
    public var maxRetryAfter: Double

    public init(retries: Int = 5, baseDelay: Double = 1, maxDelay: Double = 30, jitter: Double = 0.5, maxRetryAfter: Double = 120) {
        self.retries = max(0, retries)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(1, max(0, jitter))
        self.maxRetryAfter = max(0, maxRetryAfter)
    }

    /// Seconds to wait before retry number `attempt` (0 for the first retry) after `error`.
    public func delay(attempt: Int, after error: EngineError) -> Double {
        if let asked = error.retryAfter { return min(max(0, asked), maxRetryAfter) }
        let exponential = min(maxDelay, baseDelay * Double(1 << min(attempt, 30)))
        return exponential * (1 - jitter * Double.random(in: 0...1))
    }
}

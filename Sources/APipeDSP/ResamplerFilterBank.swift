import Foundation

/// Coefficient table of one polyphase stage: one row of taps per phase, computed once and shared.
///
/// With `interpolated == false` there is one row per exact phase `p / up`; otherwise `phases + 1`
/// rows sample the filter on a fixed grid and the stage interpolates linearly between neighbours
/// (the fallback for ratios whose exact phase count would be too large).
final class ResamplerFilterBank: Sendable {
    /// Filter taps per output sample (input samples spanned), even.
    let taps: Int
    /// Row length: `taps` rounded up to the SIMD block.
    let stride: Int
    /// Phases of the table (`up` when exact).
    let phases: Int
    /// Whether rows are a grid to interpolate between rather than exact phases.
    let interpolated: Bool
    /// `rows * stride` coefficients, row-major.
    let coefficients: [Float]

    /// Phase grid of the interpolated fallback: linear interpolation error ~ (pi*cutoff/phases)^2/2.
    static let interpolatedPhases = 2048
    /// Largest exact table (floats) before falling back to interpolated phases.
    static let maxExactTable = 1 << 22

    /// Taps per output frame of the direct filter for `up/down` and `spec`.
    static func taps(up: Int, down: Int, spec: ResamplerFilterSpec) -> Int {
        let transition = 0.5 * min(1.0, Double(up) / Double(down)) * (spec.stopEdge - spec.passEdge)
        // At least two input steps wide, so a window never jumps past the history it reads.
        return max(KaiserSinc.length(attenuation: spec.attenuation, transition: transition), 2 * (down / up + 2))
    }

    /// Designs the table for `up/down` (reduced) with `spec`; cut-off relative to the lower rate.
    init(up: Int, down: Int, spec: ResamplerFilterSpec) {
        let cutoff = 0.5 * min(1.0, Double(up) / Double(down)) * (spec.passEdge + spec.stopEdge) / 2
        taps = Self.taps(up: up, down: down, spec: spec)
        let lanes = ResamplerKernel.lanes
        stride = (taps + lanes - 1) / lanes * lanes
        interpolated = up * stride > Self.maxExactTable
        phases = interpolated ? Self.interpolatedPhases : up
        let rows = interpolated ? phases + 1 : phases
        let beta = KaiserSinc.beta(attenuation: spec.attenuation)
        let i0Beta = KaiserSinc.besselI0(beta)
        let half = taps / 2
        var table = [Float](repeating: 0, count: rows * stride)
        var row = [Double](repeating: 0, count: taps)
        for p in 0..<rows {
            let frac = Double(p) / Double(phases)
            var sum = 0.0
            for i in 0..<taps {
                row[i] = KaiserSinc.tap(
                    at: frac + Double(half - 1 - i), cutoff: cutoff, halfSpan: Double(half),
                    beta: beta, i0Beta: i0Beta)
                sum += row[i]
            }
            for i in 0..<taps { table[p * stride + i] = Float(row[i] / sum) }
        }
        coefficients = table
    }

    private struct Key: Hashable {
        let up: Int, down: Int, spec: ResamplerFilterSpec
    }

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var banks: [Key: ResamplerFilterBank] = [:]
    }

    private static let cache = Cache()
    /// Cache entries kept at most; beyond that the cache starts afresh (memory stays bounded).
    private static let maxCached = 32

    /// The shared table for `up/down` and `spec`, designed on first use (thread-safe).
    static func shared(up: Int, down: Int, spec: ResamplerFilterSpec) -> ResamplerFilterBank {
        let key = Key(up: up, down: down, spec: spec)
        cache.lock.lock()
        if let bank = cache.banks[key] {
            cache.lock.unlock()
            return bank
        }
        cache.lock.unlock()
        let bank = ResamplerFilterBank(up: up, down: down, spec: spec)
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let existing = cache.banks[key] { return existing }
        if cache.banks.count >= maxCached { cache.banks.removeAll() }
        cache.banks[key] = bank
        return bank
    }
}

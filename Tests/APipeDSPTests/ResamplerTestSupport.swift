import Foundation
@testable import APipeDSP

/// Signals and measurements shared by the resampler tests.
enum ResamplerTestSupport {
    /// Resamples `input` (interleaved) in blocks of `block` frames, then flushes.
    static func run(_ input: [Float], from inRate: Int, to outRate: Int, channels: Int = 1,
                    quality: ResamplerQuality, block: Int = 4096) throws -> [Float] {
        var r = try Resampler(inputRate: inRate, outputRate: outRate, channels: channels, quality: quality)
        var out: [Float] = []
        var written = 0
        input.withUnsafeBufferPointer { buf in
            var start = 0
            while start < buf.count {
                let end = min(buf.count, start + block * channels)
                written += r.process(UnsafeBufferPointer(rebasing: buf[start..<end]), into: &out)
                start = end
            }
        }
        written += r.finish(into: &out)
        precondition(written * channels == out.count)
        return out
    }

    /// A sine of `amplitude` at `frequency` Hz, `frames` long.
    static func sine(_ frequency: Double, rate: Int, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    /// SNR in dB of `y` against the best-fitting sine at `frequency` (least squares, any gain and phase).
    static func snr(_ y: ArraySlice<Float>, frequency: Double, rate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(rate)
        var ss = 0.0, cc = 0.0, sc = 0.0, ys = 0.0, yc = 0.0
        for (n, v) in y.enumerated() {
            let s = sin(w * Double(n)), c = cos(w * Double(n)), x = Double(v)
            ss += s * s; cc += c * c; sc += s * c; ys += x * s; yc += x * c
        }
        let det = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
        var signal = 0.0, noise = 0.0
        for (n, v) in y.enumerated() {
            let fit = a * sin(w * Double(n)) + b * cos(w * Double(n))
            signal += fit * fit
            noise += (Double(v) - fit) * (Double(v) - fit)
        }
        return 10 * log10(signal / max(noise, 1e-300))
    }

    /// RMS level of `y` in dB relative to a sine of amplitude `amplitude`.
    static func level(_ y: ArraySlice<Float>, amplitude: Double = 0.5) -> Double {
        let power = y.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, y.count))
        return 10 * log10(max(power, 1e-300) / (amplitude * amplitude / 2))
    }
}

import Foundation

/// Kaiser-windowed sinc low-pass design: window shape and length from a stopband attenuation.
enum KaiserSinc {
    /// Kaiser's beta for a stopband attenuation in dB.
    static func beta(attenuation a: Double) -> Double {
        if a > 50 { return 0.1102 * (a - 8.7) }
        if a >= 21 { return 0.5842 * pow(a - 21, 0.4) + 0.07886 * (a - 21) }
        return 0
    }

    /// Taps (even) for a stopband attenuation in dB and a transition width in cycles per sample.
    static func length(attenuation a: Double, transition: Double) -> Int {
        let n = Int(((a - 7.95) / (14.36 * transition)).rounded(.up)) + 1
        return max(4, n + (n & 1))
    }

    /// Modified Bessel function of the first kind, order 0 (power series; converges for all x used here).
    static func besselI0(_ x: Double) -> Double {
        let q = x * x / 4
        var term = 1.0, sum = 1.0, k = 1.0
        while term > sum * 1e-17 {
            term *= q / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    /// Impulse response at `t` samples from the centre: cut-off `cutoff` (cycles per sample),
    /// window reaching zero at `±halfSpan` samples.
    static func tap(at t: Double, cutoff: Double, halfSpan: Double, beta: Double, i0Beta: Double) -> Double {
        let x = t / halfSpan
        guard abs(x) < 1 else { return 0 }
        let window = besselI0(beta * (1 - x * x).squareRoot()) / i0Beta
        let arg = 2 * cutoff * t
        let sinc = arg == 0 ? 1 : sin(Double.pi * arg) / (Double.pi * arg)
        return 2 * cutoff * sinc * window
    }
}

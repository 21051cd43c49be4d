@testable import APipeDSP
import Foundation
import Testing

/// Whisper's log-mel checked against a direct double-precision DFT written here from first principles.
@Suite struct LogMelTests {
    /// A two-tone signal with a silent gap and a fade, 0.7 s at 16 kHz.
    static let signal: [Float] = (0..<11_200).map { i in
        let t = Double(i) / 16_000
        let gap = i > 4_000 && i < 5_000 ? 0.0 : 1.0
        return Float(gap * (0.5 * sin(2 * .pi * 440 * t) + 0.2 * sin(2 * .pi * 3_150 * t) * t))
    }

    /// Power spectrum of frame `f` by the definition: reflect-padded, periodic Hann, |DFT|^2.
    static func referencePower(_ x: [Float], frame f: Int) -> [Double] {
        let n = 400, half = 200
        func sample(_ i: Int) -> Double {
            var j = i
            if j < 0 { j = -j }
            if j >= x.count { j = 2 * (x.count - 1) - j }
            return Double(x[j])
        }
        return (0...200).map { k in
            var re = 0.0, im = 0.0
            for m in 0..<n {
                let w = 0.5 - 0.5 * cos(2 * .pi * Double(m) / Double(n))
                let v = w * sample(f * 160 + m - half)
                re += v * cos(2 * .pi * Double(k * m) / Double(n))
                im -= v * sin(2 * .pi * Double(k * m) / Double(n))
            }
            return re * re + im * im
        }
    }

    @Test func matchesDirectDFT() {
        let logMel = LogMel(melCount: 80)
        let out = logMel.compute(Self.signal)
        #expect(out.frames == Self.signal.count / 160)
        var reference = [Double](repeating: 0, count: out.frames * 80)
        for f in 0..<out.frames {
            let power = Self.referencePower(Self.signal, frame: f)
            for m in 0..<80 {
                var sum = 0.0
                for k in 0...200 { sum += Double(logMel.filters[m * 201 + k]) * power[k] }
                reference[f * 80 + m] = log10(max(sum, 1e-10))
            }
        }
        let top = reference.max()!
        var worst = 0.0
        for i in reference.indices {
            let expected = (max(reference[i], top - 8) + 4) / 4
            worst = max(worst, abs(expected - Double(out.values[i])))
        }
        #expect(worst < 2e-3, "largest log-mel difference \(worst)")
    }

    @Test func slaneyFiltersMatchLibrosa() {
        // Values of librosa.filters.mel(sr=16000, n_fft=400, n_mels=80) (Whisper's mel_filters.npz).
        let filters = LogMel.slaneyFilters(melCount: 80)
        #expect(abs(filters[1] - 0.02486259) < 1e-6)
        #expect(abs(filters[10 * 201 + 10] - 0.01990822) < 1e-6)
        #expect(abs(filters[79 * 201 + 192] - 0.0031647116) < 1e-6)
        #expect(abs(filters.reduce(0, +) - 1.9990242) < 1e-4)
    }

    @Test func paddingIsSilentAndWindowPadsWithZero() {
        let logMel = LogMel(melCount: 80)
        let out = logMel.compute(Self.signal, paddingSamples: 480_000)
        #expect(out.frames == (Self.signal.count + 480_000) / 160)
        let maximum = out.values.max()!
        let silent = out.values[(out.frames - 1) * 80]
        #expect(abs(silent - (max(-10, maximum * 4 - 4 - 8) + 4) / 4) < 1e-5)
        let window = out.window(start: 2, frames: 10, paddedTo: 20)
        #expect(window.count == 20 * 80)
        #expect(Array(window[0..<(10 * 80)]) == Array(out.values[(2 * 80)..<(12 * 80)]))
        #expect(window[(10 * 80)...].allSatisfy { $0 == 0 })
    }

    @Test func emptyInputGivesNoFrames() {
        #expect(LogMel(melCount: 80).compute([]).frames == 0)
        #expect(LogMel(melCount: 128).compute([], paddingSamples: 1_600).frames == 10)
    }
}

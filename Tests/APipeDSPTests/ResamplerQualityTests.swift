import Foundation
import Testing
@testable import APipeDSP

/// Filter quality floors: a broken filter fails these.
@Suite struct ResamplerQualityTests {
    typealias S = ResamplerTestSupport

    @Test(arguments: [
        (ResamplerQuality.low, 115.0), (.medium, 125.0), (.high, 140.0), (.best, 140.0),
    ])
    func midBandSineSNR(quality: ResamplerQuality, floor: Double) throws {
        let x = S.sine(3000, rate: 44100, frames: 22050)
        let y = try S.run(x, from: 44100, to: 16000, quality: quality)
        #expect(y.count == 8000)
        let snr = S.snr(y[1000..<7000], frequency: 3000, rate: 16000)
        #expect(snr > floor, "SNR \(snr) dB")
    }

    @Test(arguments: ResamplerQuality.allCases)
    func rejectsToneAboveNewNyquist(quality: ResamplerQuality) throws {
        let x = S.sine(12000, rate: 44100, frames: 22050)
        let y = try S.run(x, from: 44100, to: 16000, quality: quality)
        let alias = S.level(y[500..<7500])
        // Float32 arithmetic bounds what any preset reaches, whatever its design attenuation.
        #expect(alias < -(min(quality.spec.attenuation, 150) - 12), "alias \(alias) dB")
    }

    @Test func upsamplingKeepsTonesAndGain() throws {
        let x = S.sine(5000, rate: 16000, frames: 8000)
        let y = try S.run(x, from: 16000, to: 48000, quality: .medium)
        #expect(y.count == 24000)
        #expect(S.snr(y[3000..<21000], frequency: 5000, rate: 48000) > 115)
        #expect(abs(S.level(y[3000..<21000])) < 0.01)
    }

    @Test func arbitraryRatioFallbackInterpolatesPhases() throws {
        let bank = ResamplerFilterBank.shared(up: 44101, down: 44100, spec: ResamplerQuality.medium.spec)
        #expect(bank.interpolated)
        let x = S.sine(1000, rate: 44100, frames: 44100)
        let y = try S.run(x, from: 44100, to: 44101, quality: .medium, block: 999)
        #expect(y.count == 44101)
        #expect(S.snr(y[2000..<42000], frequency: 1000, rate: 44101) > 110)
    }

    @Test func simdKernelMatchesScalarReference() {
        let a = (0..<320).map { Float(sin(Double($0) * 0.37)) }
        let b = (0..<320).map { Float(cos(Double($0) * 0.11)) }
        for count in stride(from: 8, through: 320, by: 8) {
            let scalar = ResamplerKernel.dotScalar(a, b, count: count)
            #expect(abs(ResamplerKernel.dot(a, b, count: count) - scalar) < 1e-4)
            #expect(abs(ResamplerKernel.dotDouble(a, b, count: count) - scalar) < 1e-4)
            let other = ResamplerKernel.dotScalar(a, a, count: count)
            for (l, r) in [ResamplerKernel.dot2(a, b, a, count: count), ResamplerKernel.dot2Double(a, b, a, count: count)] {
                #expect(abs(l - scalar) < 1e-4 && abs(r - other) < 1e-4)
            }
        }
    }
}

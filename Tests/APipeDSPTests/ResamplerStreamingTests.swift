import Foundation
import Testing
@testable import APipeDSP

/// Streaming behaviour: exact lengths, block-size independence, channels, errors.
@Suite struct ResamplerStreamingTests {
    typealias S = ResamplerTestSupport
    static let rates = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000]

    @Test func exactLengthsForEveryRatePair() throws {
        for inRate in Self.rates {
            for outRate in Self.rates where outRate != inRate {
                for frames in [0, 1, 2, 997, 4801] {
                    let y = try S.run([Float](repeating: 0.1, count: frames), from: inRate, to: outRate,
                                      quality: .low, block: 333)
                    let expected = (frames * outRate + inRate / 2) / inRate
                    #expect(y.count == expected, "\(inRate)->\(outRate), \(frames) frames")
                }
            }
        }
    }

    @Test func exactLengthOverLongStreamInOddBlocks() throws {
        var r = try Resampler(inputRate: 44100, outputRate: 16000, channels: 1, quality: .low)
        let block = [Float](repeating: 0.25, count: 7919)
        var out: [Float] = []
        var total = 0, frames = 0
        for i in 0..<400 {
            out.removeAll(keepingCapacity: true)
            let n = 1 + (i * 7717) % 7919
            total += block.withUnsafeBufferPointer { r.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &out) }
            frames += n
            #expect(abs(total - frames * 16000 / 44100) <= r.latencyFrames + 1)
        }
        out.removeAll(keepingCapacity: true)
        total += r.finish(into: &out)
        #expect(total == (frames * 16000 + 22050) / 44100)
    }

    @Test(arguments: [(44100, 16000), (16000, 48000), (8000, 11025), (48000, 44100)])
    func identicalWhateverTheBlockSize(inRate: Int, outRate: Int) throws {
        let x: [Float] = (0..<20000).map { (n: Int) -> Float in
            let t = Double(n)
            return Float(0.3 * sin(t * 0.013) + 0.2 * sin(t * 0.71))
        }
        let reference = try S.run(x, from: inRate, to: outRate, quality: .high, block: 20000)
        for block in [1, 7, 64, 1023, 4097] {
            let y = try S.run(x, from: inRate, to: outRate, quality: .high, block: block)
            #expect(y == reference, "block \(block)")
        }
    }

    @Test func channelsAreIndependent() throws {
        let left = S.sine(440, rate: 48000, frames: 9000)
        let right = S.sine(3100, rate: 48000, frames: 9000, amplitude: 0.2)
        var stereo: [Float] = []
        for i in 0..<9000 {
            stereo.append(left[i])
            stereo.append(right[i])
        }
        let y = try S.run(stereo, from: 48000, to: 16000, channels: 2, quality: .medium, block: 501)
        let l = try S.run(left, from: 48000, to: 16000, quality: .medium)
        let r = try S.run(right, from: 48000, to: 16000, quality: .medium)
        #expect(y.count == 6000)
        let mismatches = (0..<3000).filter { (i: Int) -> Bool in y[2 * i] != l[i] || y[2 * i + 1] != r[i] }
        #expect(mismatches.isEmpty)
    }

    @Test func finishStartsANewStream() throws {
        var r = try Resampler(inputRate: 48000, outputRate: 16000, channels: 1, quality: .low)
        let x = S.sine(1000, rate: 48000, frames: 4800)
        var first: [Float] = [], second: [Float] = []
        _ = x.withUnsafeBufferPointer { r.process($0, into: &first) }
        _ = r.finish(into: &first)
        _ = x.withUnsafeBufferPointer { r.process($0, into: &second) }
        _ = r.finish(into: &second)
        #expect(first == second)
        #expect(first.count == 1600)
    }

    @Test func rejectsBadConfigurations() {
        #expect(throws: ResamplerError.invalidRate(0)) {
            try Resampler(inputRate: 0, outputRate: 16000, channels: 1, quality: .low)
        }
        #expect(throws: ResamplerError.invalidChannelCount(0)) {
            try Resampler(inputRate: 8000, outputRate: 16000, channels: 0, quality: .low)
        }
        #expect(throws: ResamplerError.ratioOutOfRange(inputRate: 1, outputRate: 1000)) {
            try Resampler(inputRate: 1, outputRate: 1000, channels: 1, quality: .low)
        }
    }
}

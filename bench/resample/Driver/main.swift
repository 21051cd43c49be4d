// apipe-resample-bench: resample raw interleaved f32 from a file with APipeDSP's Resampler.
// Usage: apipe-resample-bench IN_RATE OUT_RATE CHANNELS QUALITY INPUT.f32 [OUTPUT.f32]
// Prints "frames_in frames_out seconds" (time spent in process/finish only) on stdout.
import APipeDSP
import Foundation

let args = CommandLine.arguments
guard args.count >= 6, let inRate = Int(args[1]), let outRate = Int(args[2]), let channels = Int(args[3]),
      let quality = ResamplerQuality(rawValue: args[4])
else {
    FileHandle.standardError.write(Data("usage: apipe-resample-bench IN_RATE OUT_RATE CHANNELS low|medium|high|best IN.f32 [OUT.f32]\n".utf8))
    exit(64)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: args[5]))
    let input: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    var resampler = try Resampler(inputRate: inRate, outputRate: outRate, channels: channels, quality: quality)
    let block = 4096 * channels
    var output: [Float] = []
    output.reserveCapacity(Int(Double(input.count) * Double(outRate) / Double(inRate)) + 4096 * channels)
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        input.withUnsafeBufferPointer { buf in
            var start = 0
            while start < buf.count {
                let end = min(buf.count, start + block)
                _ = resampler.process(UnsafeBufferPointer(rebasing: buf[start..<end]), into: &output)
                start = end
            }
        }
        _ = resampler.finish(into: &output)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    if args.count > 6 {
        try output.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: args[6])) }
    }
    print(input.count / channels, output.count / channels, seconds)
} catch {
    FileHandle.standardError.write(Data("apipe-resample-bench: \(error)\n".utf8))
    exit(1)
}

import APipeStream
import Foundation
import Testing

/// aresample takes every rate the man page allows (1 to 768000 Hz) from any input rate, with
/// exact lengths, and refuses positions it cannot represent instead of crashing.
@Suite struct ResampleRangeTests {
    @Test(arguments: [("apipe", 62), ("libsamplerate", 62), ("apipe", 2), ("libsamplerate", 2), ("apipe", 768000), ("libsamplerate", 768000)])
    func ratesBeyondOneConverterRunAsAChain(engine: String, rate: Int) throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 1.5 sine 300")
        let result = try shell.run("acapture -i a.wav --preset low | aresample --engine \(engine) -r \(rate) | acat --events")
        #expect(result.statuses == [0, 0, 0], "\(engine) \(rate): \(result.stderr)")
        let frames = Int((1.5 * Double(rate)).rounded())
        #expect(result.lines.contains { $0.hasPrefix(#"{"type":"audio","position":0,"frames":\#(frames),"#) }, "\(engine) \(rate): \(result.lines)")
        #expect(result.lines.contains { $0.contains("session.end") })
    }

    @Test func aChainKeepsATone() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 2 sine 20 vol 0.5")
        let converted = try shell.run("acapture -i a.wav | aresample -r 100 | acat --wav > out.wav")
        #expect(converted.statuses == [0, 0, 0], "\(converted.stderr)")
        let result = try shell.run("sox out.wav -n stat 2>&1 | grep 'RMS     amplitude'")
        let rms = Double(result.text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.05, "RMS \(rms)")
    }

    @Test func positionBeyondTheLargestStreamPositionIsADataError() throws {
        let shell = try Shell()
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        try [UInt8](repeating: 0, count: 3200).withUnsafeBytes { try writer.writeAudio(position: 0, bytes: $0) }
        try [UInt8](repeating: 0, count: 3200).withUnsafeBytes { try writer.writeAudio(position: Int(Int64.max / 2) - 10_000, bytes: $0) }
        try writer.finish()
        try Data(writer.collected).write(to: URL(fileURLWithPath: shell.path("far.apipe")))
        let result = try shell.run("aresample -r 48000 < far.apipe | acat --events")
        #expect(result.statuses == [65, 3], "\(result.stderr)")
        #expect(result.stderr.contains("aresample: audio position 4611686018427377903 at 16000 Hz is beyond the largest stream position (2^62) at 48000 Hz"))
        #expect(result.lines.contains(#"{"type":"audio","position":0,"frames":4800,"t":0.0,"duration":0.1}"#), "what came before is kept")
    }
}

import APipeAudio
import APipeStream
import Foundation
import Testing

/// A format change mid-stream never loses audio: acat --raw/--wav write everything before it
/// and then fail clearly; acat -o starts new files; aresample converts across it.
@Suite struct FormatChangeTests {
    /// `a.wav` (4 s, 16 kHz mono) then `b.wav` (1 s, 8 kHz stereo) as two sessions in `two.apipe`.
    func twoFormats(_ shell: Shell) throws {
        try shell.run("""
            sox -n -r 16000 -c 1 -b 16 a.wav synth 4 sine 300
            sox -n -r 8000 -c 2 -b 16 b.wav synth 1 sine 500
            acapture -i a.wav -i b.wav > two.apipe
            """)
    }

    @Test func rawKeepsEverythingBeforeTheChangeThenFails() throws {
        let shell = try Shell()
        try twoFormats(shell)
        let result = try shell.run("acat --raw < two.apipe > out.raw; echo status=$?; stat -c %s out.raw")
        #expect(result.lines == ["status=65", "128000"])
        #expect(result.stderr.hasPrefix("acat: the format changes mid-stream (s16le 16000 Hz 1 ch to s16le 8000 Hz 2 ch) after 4.0 s of audio, which was written"), "\(result.stderr)")
    }

    @Test func wavKeepsEverythingBeforeTheChangeWithTrueSizes() throws {
        let shell = try Shell()
        try twoFormats(shell)
        let result = try shell.run("acat --wav < two.apipe > out.wav; echo status=$?; soxi -s out.wav; sox a.wav -t s16 - | cmp - <(tail -c +45 out.wav) && echo same")
        #expect(result.lines == ["status=65", "64000", "same"], "\(result.stderr)")
    }

    @Test func wavHeaderWaitsForTheFirstAudio() throws {
        let shell = try Shell()
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 8000, channels: 2))
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        try [UInt8](repeating: 0, count: 3200).withUnsafeBytes { try writer.writeAudio(position: 0, bytes: $0) }
        try writer.finish()
        try Data(writer.collected).write(to: URL(fileURLWithPath: shell.path("x.apipe")))
        let result = try shell.run("acat --wav < x.apipe | cat > out.wav && soxi -r out.wav && soxi -c out.wav && stat -c %s out.wav")
        #expect(result.lines == ["16000", "1", "3244"], "\(result.stderr)")
    }

    @Test func splitStartsNewFilesAtAFormatChangeInsideASession() throws {
        let shell = try Shell()
        let writer = StreamWriter()
        let id = "0badcafe-0000-4000-8000-000000000000"
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        try writer.write(event: SessionStart(
            session: id, title: "t", created: "2026-01-01T00:00:00Z", preset: nil, rate: 16000, bits: 16, channels: 1,
            format: "s16le", source: "test", device: nil, host: "h", os: "o", appVersion: "0"))
        try [UInt8](repeating: 1, count: 32000).withUnsafeBytes { try writer.writeAudio(position: 0, bytes: $0) }
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 8000, channels: 2))
        try [UInt8](repeating: 2, count: 16000).withUnsafeBytes { try writer.writeAudio(position: 8000, bytes: $0) }
        try writer.write(event: SessionEnd(session: id, duration: 2, frames: 12000, interrupted: false))
        try writer.finish()
        try Data(writer.collected).write(to: URL(fileURLWithPath: shell.path("x.apipe")))
        let result = try shell.run("acat -o out < x.apipe && cd out && for f in *; do echo \"$f $(soxi -r $f) $(soxi -c $f) $(soxi -s $f)\"; done")
        #expect(result.statuses == [0], "\(result.stderr)")
        #expect(result.lines == ["session-0badcafe-part2.wav 8000 2 4000", "session-0badcafe.wav 16000 1 16000"])
    }

    @Test func aresampleCarriesEverySessionAcrossAChangeTo100Hz() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 2 sine 300; sox -n -r 100 -b 16 b.wav synth 3 sine 10")
        for engine in ["apipe", "libsamplerate"] {
            let result = try shell.run("acapture -i a.wav -i b.wav | aresample -r 16000 --engine \(engine) | acat --events")
            #expect(result.statuses == [0, 0, 0], "\(engine): \(result.stderr)")
            #expect(result.lines.filter { $0.contains("session.start") }.count == 2, "\(engine)")
            let audio = result.lines.filter { $0.contains(#""type":"audio""#) }
            #expect(audio == [
                #"{"type":"audio","position":0,"frames":32000,"t":0.0,"duration":2.0}"#,
                #"{"type":"audio","position":0,"frames":48000,"t":0.0,"duration":3.0}"#,
            ], "\(engine)")
        }
    }
}

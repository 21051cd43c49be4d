import Foundation
import Testing

/// Each bad input gets one clear line on stderr and a non-zero exit; never a crash or a hang.
@Suite struct BadInputTests {
    @Test func missingFile() throws {
        let shell = try Shell()
        let result = try shell.run("acapture -i nosuch.wav > /dev/null")
        #expect(result.statuses == [66])
        #expect(result.stderr == "acapture: cannot open 'nosuch.wav': No such file or directory\n")
    }

    @Test func textFileIsNotAudio() throws {
        let shell = try Shell()
        let result = try shell.run("echo 'just some text here' > notes.txt; acapture -i notes.txt > /dev/null")
        #expect(result.statuses == [65])
        #expect(result.stderr.hasPrefix("acapture: cannot read audio from 'notes.txt': "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func unsupportedRawFormat() throws {
        let shell = try Shell()
        let result = try shell.run("acapture -i - --raw-format s24be --rate 16000 --channels 1 < /dev/null > /dev/null")
        #expect(result.statuses == [64])
        #expect(result.stderr.contains("unsupported raw format 's24be'"))
    }

    @Test(arguments: ["--rate 0", "--rate 10000000", "--channels 0", "--channels 9"])
    func rawLayoutOutOfRange(option: String) throws {
        let shell = try Shell()
        let result = try shell.run("acapture -i - --raw-format s16le --rate 16000 --channels 1 \(option) < /dev/null > /dev/null")
        #expect(result.statuses == [64])
        #expect(result.stderr.contains("out of range"))
    }

    @Test func garbageOnStandardInput() throws {
        let shell = try Shell()
        let result = try shell.run("echo 'hello there' | acat")
        #expect(result.statuses == [0, 65])
        #expect(result.stderr == "acat: input is not an apipe stream (bad magic at byte 0)\n")
    }

    @Test func wavFedToAStageIsRecognised() throws {
        let shell = try Shell()
        let result = try shell.run("sox -n -r 8000 a.wav synth 0.1 sine 300; aresample -r 16000 < a.wav > /dev/null")
        #expect(result.statuses == [65])
        #expect(result.stderr.contains("looks like a WAV file"))
    }

    @Test func truncatedStreamIsInterruptedDownstreamAndKept() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 a.wav synth 2 sine 300; acapture -i a.wav > full.apipe")
        let result = try shell.run("head -c 40000 full.apipe | aresample -r 8000 | acat --events")
        #expect(result.statuses == [0, 3, 3])
        #expect(result.stderr.contains("aresample: input ended at byte 40000 without an end marker"))
        #expect(result.lines.contains { $0.contains("session.start") })
        #expect(result.lines.last?.contains(#""type":"stream.interrupted","#) == true || result.lines.last?.contains("stream.interrupted") == true)
        let audio = try shell.run("head -c 40000 full.apipe | acat --raw | wc -c")
        #expect(audio.statuses == [0, 3, 0])
        #expect(Int(audio.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 39000)
    }

    /// Streams built byte by byte: header, then one packet.
    func craft(_ shell: Shell, _ name: String, _ hex: String) throws {
        try shell.run("printf '\\x89APIPE\\r\\n\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\(hex)' > \(name)")
    }

    @Test func frameClaimingFourGigabytes() throws {
        let shell = try Shell()
        try craft(shell, "huge.apipe", "F\\x00\\x00\\x00\\x08\\x00\\x00\\x00\\x01\\x01\\x00\\x00\\x80\\x3e\\x00\\x00A\\x00\\x00\\x00\\xff\\xff\\xff\\xff")
        let result = try shell.run("acat --raw < huge.apipe > /dev/null")
        #expect(result.statuses == [65])
        #expect(result.stderr.hasPrefix("acat: corrupt stream at byte 36: audio packet claims 4294967295 bytes"))
    }

    @Test func unknownFormatVersion() throws {
        let shell = try Shell()
        try shell.run("printf '\\x89APIPE\\r\\n\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00' > v2.apipe")
        let result = try shell.run("acat < v2.apipe")
        #expect(result.statuses == [65])
        #expect(result.stderr == "acat: unsupported stream version 2.0 at byte 8 (this reader knows version 1.x)\n")
    }

    @Test(arguments: [
        ("\\x00", "\\x80\\x3e\\x00\\x00", "channel count 0 is out of range"),
        ("\\x01", "\\x00\\x00\\x00\\x00", "sample rate 0 Hz is out of range"),
        ("\\x01", "\\x80\\x96\\x98\\x00", "sample rate 10000000 Hz is out of range"),
    ])
    func formatRecordOutOfRange(channels: String, rate: String, message: String) throws {
        let shell = try Shell()
        try craft(shell, "bad.apipe", "F\\x00\\x00\\x00\\x08\\x00\\x00\\x00\\x01\(channels)\\x00\\x00\(rate)")
        let result = try shell.run("acat < bad.apipe")
        #expect(result.statuses == [65])
        #expect(result.stderr == "acat: corrupt stream at byte 24: \(message) (1 to \(message.hasPrefix("channel") ? "8" : "768000 Hz"))\n")
    }

    @Test func closedOutputLeavesQuietly() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 44100 a.wav synth 30 sine 300")
        let result = try shell.run("acapture -i a.wav | head -c 100 > /dev/null")
        #expect(result.statuses == [141, 0])
        #expect(result.stderr.isEmpty)
        let stage = try shell.run("acapture -i a.wav | aresample -r 16000 | head -c 100 > /dev/null")
        #expect(stage.statuses[1] == 141)
        #expect(stage.stderr.isEmpty)
    }

    @Test func binaryNeverGoesToATerminal() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 8000 a.wav synth 0.1 sine 300")
        let result = try shell.run("script -qec 'acapture -i a.wav' /dev/null")
        #expect(result.statuses == [64])
        #expect(result.text.contains("refusing to write a binary stream to a terminal; pipe it into another tool (| acat)"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let shell = try Shell()
        for command in ["aresample -r 0", "aresample --quality ultra", "aresample --format s8", "acapture --preset huge", "acat --wav --raw", "acapture --duration -1"] {
            let result = try shell.run("\(command) < /dev/null > /dev/null")
            #expect(result.statuses == [64], "\(command): \(result.stderr)")
        }
    }
}

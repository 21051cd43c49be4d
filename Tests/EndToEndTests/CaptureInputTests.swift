import Foundation
import Testing

/// How acapture takes its inputs: many files after -i or as arguments, directories, files cut
/// short, and titles that would upset a terminal.
@Suite struct CaptureInputTests {
    func titles(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("session.start") }.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"] as? String
        }
    }

    @Test func filesAfterDashIAndBareFilesAreSessionsInOrder() throws {
        let shell = try Shell()
        try shell.run("for n in 1 2 3; do sox -n -r 8000 -b 16 f$n.wav synth 0.$n sine 300; done")
        let glob = try shell.run("acapture -i f*.wav | acat --events")
        #expect(glob.statuses == [0, 0], "\(glob.stderr)")
        #expect(titles(glob.lines) == ["f1", "f2", "f3"])
        let bare = try shell.run("acapture f3.wav f1.wav --preset low | acat --events")
        #expect(bare.statuses == [0, 0], "\(bare.stderr)")
        #expect(titles(bare.lines) == ["f3", "f1"])
        let mixed = try shell.run("acapture -i f2.wav f3.wav --preset low -i f1.wav | acat --events")
        #expect(mixed.statuses == [0, 0], "\(mixed.stderr)")
        #expect(titles(mixed.lines) == ["f2", "f3", "f1"])
    }

    @Test func aDirectoryCannotBeOpened() throws {
        let shell = try Shell()
        let result = try shell.run("mkdir folder; acapture -i folder > /dev/null")
        #expect(result.statuses == [66])
        #expect(result.stderr == "acapture: cannot open 'folder': Is a directory\n")
    }

    @Test func aWavCutShortIsPassedOnWithAWarningAndMarked() throws {
        let shell = try Shell()
        let result = try shell.run("sox -n -r 16000 -b 16 t.wav synth 2 sine 300; head -c 40000 t.wav > cut.wav; acapture -i cut.wav | acat --events")
        #expect(result.statuses == [0, 0], "\(result.stderr)")
        #expect(result.stderr == "acapture: warning: 'cut.wav': file ends early: its header claims 64000 bytes of audio, it holds 39956; passed on what it holds, session marked interrupted\n")
        #expect(result.lines.contains(#"{"type":"audio","position":0,"frames":19978,"t":0.0,"duration":1.248625}"#))
        #expect(result.lines.contains { $0.contains("session.end") && $0.contains(#""interrupted":true"#) && $0.contains("file ends early") })
        let whole = try shell.run("acapture -i t.wav | acat --events")
        #expect(whole.stderr.isEmpty)
        #expect(whole.lines.contains { $0.contains("session.end") && $0.contains(#""interrupted":false"#) })
    }

    @Test func controlCharactersInTitlesAreEscapedInTheSummary() throws {
        let shell = try Shell()
        let result = try shell.run("sox -n -r 8000 a.wav synth 0.5 sine 300; acapture -i a.wav --title $'evil\\e[2J\\nsession fake\\ttab' | acat")
        #expect(result.statuses == [0, 0], "\(result.stderr)")
        #expect(result.lines.first?.contains(#""evil\x1b[2J\nsession fake\ttab""#) == true, "\(result.lines)")
        #expect(!result.text.contains("\u{1b}"))
        #expect(result.lines.filter { $0.hasPrefix("session ") }.count == 1)
    }
}

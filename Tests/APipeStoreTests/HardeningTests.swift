import APipeStream
import Foundation
import Testing
@testable import APipeStore

/// Session ids, paths and printed text that a hostile stream or row controls.
@Suite struct HardeningTests {
    @Test func onlyUUIDsAreSessionIDs() {
        #expect(SessionID.canonical("6F1C2A3B-0000-4000-8000-0000000000AA") == "6f1c2a3b-0000-4000-8000-0000000000aa")
        for bad in ["", "../../../../tmp/victim/important", "6f1c2a3b-0000-4000-8000-00000000000\n",
                    "6f1c2a3b00000-4000-8000-0000000000aa", "6f1c2a3b-0000-4000-8000-0000000000ag",
                    "6f1c2a3b-0000-4000-8000-0000000000aa0", "6f1c2a3b/0000-4000-8000-0000000000aa"] {
            #expect(SessionID.canonical(bad) == nil, "\(bad)")
        }
    }

    @Test func ownedPathsStayUnderAudio() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        #expect(library.ownedPath("audio/6f/6f1c/session.wav") == library.root.path + "/audio/6f/6f1c/session.wav")
        for bad in ["/etc/passwd", "audio/../../x.wav", "audio//x.wav", "audio/./x", "other/x.wav", "audio"] {
            #expect(library.ownedPath(bad) == nil, "\(bad)")
        }
    }

    @Test func controlCharactersPrintAsEscapes() {
        #expect(PrintableText.escaped("plain title") == "plain title")
        #expect(PrintableText.escaped("a\nb\tc\r\u{1B}[2J\u{7F}\u{85}") == #"a\nb\tc\r\x1b[2J\x7f\u{85}"#)
        #expect(PrintableText.escaped("\u{1}hit\u{2}", keeping: ["\u{1}", "\u{2}"]) == "\u{1}hit\u{2}")
    }

    @Test func aHostileSessionIDIsCorruptInputAtItsOffset() throws {
        let library = try TemporaryLibrary()
        let bytes = try StreamFixture.session("../../../../tmp/victim")
        #expect(throws: StreamError.corrupt(offset: 40, reason: #"session id "../../../../tmp/victim" is not a UUID"#)) {
            try library.ingest(bytes)
        }
        let sessions: Int? = try library.value("SELECT count(*) FROM session")
        #expect(sessions == 0)
    }

    @Test func aGapBeyondADayIsCorruptInput() throws {
        let library = try TemporaryLibrary()
        let f = StreamFixture()
        try f.writer.write(format: f.format)
        try f.writer.write(event: StreamFixture.start())
        try f.audio(at: 0, duration: 0.5)
        try f.audio(at: Double(1 << 40), duration: 0.001)
        try f.writer.finish()
        #expect {
            try library.ingest(f.writer.collected)
        } throws: { error in
            guard case StreamError.corrupt(_, let reason) = error else { return false }
            return reason.hasPrefix("audio position 17592186044416000 ")
        }
        let frames: Int? = try library.value("SELECT frames FROM session")
        #expect(frames == 8000)
    }
}

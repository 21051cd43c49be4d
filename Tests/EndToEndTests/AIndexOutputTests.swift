import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What `aindex` prints and how it fails: escaped text, write errors, damaged and read-only
/// libraries, missing inputs; through the built binary.
@Suite(.serialized) struct AIndexOutputTests {
    let aindex = AIndexTests()

    @Test func controlCharactersAreEscapedInEveryTextOutput() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let stream = try AIndexStreams.session(id: "6f1c2a3b-0000-4000-8000-0000000000ee", title: "evil\u{1B}[2J\ntitle\tbudget",
                                               text: "budget\u{1B}]0;owned\u{7}\nfake line")
        #expect(try aindex.run(["--library", dir.path], input: stream).status == 0)
        let outputs = [
            try aindex.run(["sessions", "--library", dir.path]),
            try aindex.run(["show", "6f1c", "--library", dir.path]),
            try aindex.run(["search", "budget", "--library", dir.path]),
            try aindex.run(["export", "6f1c", "--library", dir.path]),
            try aindex.run(["delete", "6f1c", "--dry-run", "--library", dir.path]),
        ]
        for output in outputs {
            #expect(output.status == 0)
            #expect(!output.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(output.stdout)")
        }
        #expect(outputs[0].stdout.contains(#"evil\x1b[2J\ntitle\tbudget"#))
        #expect(outputs[1].stdout.contains(#"budget\x1b]0;owned\x07\nfake line"#))
        #expect(outputs[2].stdout.contains(#"(evil\x1b[2J\ntitle\tbudget)"#))
        #expect(outputs[3].stdout == #"budget\x1b]0;owned\x07\nfake line"# + "\n")
        let json = try aindex.run(["sessions", "--json", "--library", dir.path])
        #expect(json.stdout.contains(#""title":"evil\u001b[2J\ntitle\tbudget""#))
    }

    @Test func aWriteErrorOnStandardOutputExits74() throws {
        let shell = try Shell()
        try Data(try AIndexTests.session(1)).write(to: URL(fileURLWithPath: shell.path("s.apipe")))
        #expect(try shell.run("aindex --library lib < s.apipe").statuses == [0])
        for command in ["sessions", "show 00000001", "search budget", "export 00000001", "stats", "check", "pending"] {
            let result = try shell.run("aindex \(command) --library lib > /dev/full")
            #expect(result.statuses == [74], "aindex \(command)")
            #expect(result.stderr == "aindex: write failed: No space left on device\n", "aindex \(command)")
        }
    }

    @Test func aDamagedDatabaseIsNamedAsSuch() throws {
        let dir = AIndexTests.TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: dir.path + "/library.sqlite"))
        let result = try aindex.run(["sessions", "--library", dir.path])
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("aindex: library \(dir.path) is damaged: library.sqlite is not an SQLite database; "))
        #expect(result.stderr.contains("move it aside"))
        #expect(!result.stderr.contains("no library.sqlite"))
    }

    @Test func importOfAMissingPathFails() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let result = try aindex.run(["import", "/nonexistent/talk.wav", "--library", dir.path])
        #expect(result.status == 66)
        #expect(result.stderr == "aindex: cannot read /nonexistent/talk.wav: No such file or directory\n")
    }

    /// Needs root and mount namespaces (a read-only bind mount); chmod cannot stop root.
    static let canMountReadOnly = getuid() == 0 && (try? Shell().run("unshare -m true").statuses == [0]) == true

    @Test(.enabled(if: canMountReadOnly)) func checkOnAReadOnlyLibraryReportsNoFalseProblem() throws {
        let shell = try Shell()
        try Data(try AIndexTests.session(1)).write(to: URL(fileURLWithPath: shell.path("s.apipe")))
        #expect(try shell.run("aindex --library lib < s.apipe").statuses == [0])
        let result = try shell.run("""
            unshare -m bash -c 'mount --bind lib lib && mount -o remount,bind,ro lib && aindex check --library lib'
            """)
        #expect(result.statuses == [0], "\(result.stderr)")
        #expect(result.text == "search index: not checked (the library is read-only)\nlibrary is consistent\n")
    }
}

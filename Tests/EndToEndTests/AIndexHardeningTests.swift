import APipeStream
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aindex` against hostile streams and libraries, idle pipes and concurrent writers, through
/// the built binary.
@Suite(.serialized) struct AIndexHardeningTests {
    let aindex = AIndexTests()

    /// A directory outside the library whose files a hostile stream or row aims at.
    final class Victim {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aindex-victim-\(UUID().uuidString.lowercased())").path
        var directory: String { root + "/important" }

        init(files: [String]) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for name in files { _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("precious".utf8)) }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A library-relative path climbing out of any library to this directory.
        var climb: String { String(repeating: "../", count: 16) + directory.dropFirst() }

        var contents: [String: String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { name in
                (name, (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "")
            })
        }
    }

    @Test func aSessionIDThatIsNotAUUIDIsRefused() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let victim = try Victim(files: ["session.wav"])
        let climbing = try aindex.run(["--library", dir.path], input: try AIndexStreams.session(id: victim.climb))
        #expect(climbing.status == 65)
        #expect(climbing.stderr.contains("aindex: corrupt stream at byte "))
        #expect(climbing.stderr.contains("is not a UUID"))
        #expect(victim.contents == ["session.wav": "precious"])

        let newline = try aindex.run(["--library", dir.path], input: try AIndexStreams.session(id: "6f1c2a3b-0000-4000-8000-00000000000\n"))
        #expect(newline.status == 65)
        #expect(newline.stderr.contains(#"session id "6f1c2a3b-0000-4000-8000-00000000000\n" is not a UUID"#))
        let names = FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []
        #expect(!names.contains { $0.contains("\n") || $0.contains("..") })

        let upper = try aindex.run(["--library", dir.path], input: try AIndexStreams.session(id: "6F1C2A3B-0000-4000-8000-0000000000AA"))
        #expect(upper.status == 0)
        let sessions = try aindex.run(["sessions", "--json", "--library", dir.path])
        #expect(sessions.stdout.contains(#""id":"6f1c2a3b-0000-4000-8000-0000000000aa""#))
    }

    @Test func pruneNeverDeletesOutsideTheLibrary() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let victim = try Victim(files: ["x.wav", "seg.wav", "y.wav.partial-1"])
        #expect(try aindex.run(["--library", dir.path], input: try AIndexTests.session(1)).status == 0)
        // A row as an aindex without id checks wrote it for a climbing session id.
        let uuid = victim.climb
        let sql = """
            INSERT INTO session (uuid, title, created_at, started_at, audio_path, audio_owned, finalized)
                VALUES ('\(uuid)', 'old', 0, 0, 'audio/\(uuid)/x.wav', 1, 1);
            INSERT INTO segment (session_id, idx, start_time, end_time, duration, audio_path)
                VALUES (last_insert_rowid(), 0, 0, 1, 1, 'audio/\(uuid)/seg.wav');
            """
        let shell = try Shell()
        #expect(try shell.run("sqlite3 '\(dir.path)/library.sqlite' \"$SQL\"", environment: ["SQL": sql]).statuses == [0])
        let prune = try aindex.run(["prune", "--older-than", "30d", "--library", dir.path])
        #expect(prune.status == 0)
        #expect(prune.stdout == "delete \(uuid) old\n")
        #expect(victim.contents == ["x.wav": "precious", "seg.wav": "precious", "y.wav.partial-1": "precious"])
    }

    @Test func aPositionGapOfMoreThanADayIsRefused() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let rate = 100
        let uuid = "6f1c2a3b-0000-4000-8000-0000000000ab"
        let gap = try aindex.run(["--library", dir.path],
                                 input: try AIndexStreams.session(id: uuid, rate: rate, positions: [0, (86_400 + 2) * rate]))
        #expect(gap.status == 65)
        #expect(gap.stderr.contains("aindex: corrupt stream at byte "))
        #expect(gap.stderr.contains("more than the 24 hours aindex fills with silence"))
        let show = try aindex.run(["show", "6f1c", "--json", "--library", dir.path])
        #expect(show.stdout.contains(#""interrupted":true"#))
        #expect(show.stdout.contains(#""duration":1,"#))
        let withinADay = try aindex.run(["--library", dir.path],
                                        input: try AIndexStreams.session(id: uuid.replacingOccurrences(of: "ab", with: "ac"),
                                                                         rate: rate, positions: [0, 3600 * rate]))
        #expect(withinADay.status == 0)
    }

    @Test func sessionsAreCommittedWhileTheInputPipeIsIdle() throws {
        let dir = AIndexTests.TemporaryDirectory()
        var stream: [UInt8] = []
        for n in 1...3 { stream += try AIndexTests.session(n) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AIndexTests.binary)
        process.arguments = ["--library", dir.path]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? stdin.fileHandleForWriting.close()
        }
        try stdin.fileHandleForWriting.write(contentsOf: Data(stream))
        // The pipe stays open and idle; the sessions must show up without more input.
        var seen = 0
        for _ in 0..<150 where seen < 3 {
            usleep(200_000)
            seen = try aindex.run(["sessions", "--json", "--library", dir.path]).stdout.split(separator: "\n").count
        }
        #expect(seen == 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let kept = try aindex.run(["sessions", "--json", "--completed", "--library", dir.path])
        #expect(kept.stdout.split(separator: "\n").count == 3)
    }

    @Test func concurrentIngestsIntoANewLibraryAllSucceed() throws {
        let shell = try Shell()
        for n in 1...4 { try Data(try AIndexTests.session(n)).write(to: URL(fileURLWithPath: shell.path("s\(n).apipe"))) }
        for round in 1...6 {
            let result = try shell.run("""
                pids=""
                for n in 1 2 3 4; do aindex --library lib\(round) < s$n.apipe 2>> errors & pids="$pids $!"; done
                failed=0
                for pid in $pids; do wait $pid || failed=$((failed + 1)); done
                echo $failed
                aindex sessions --json --library lib\(round) | wc -l
                """)
            let errors = (try? String(contentsOfFile: shell.path("errors"), encoding: .utf8)) ?? ""
            #expect(result.lines == ["0", "4"], "round \(round): \(errors)")
        }
    }

    @Test func reingestCompletesASessionFirstIngestedFromATruncatedStream() throws {
        let dir = AIndexTests.TemporaryDirectory()
        let stream = try AIndexTests.session(7, seconds: 5)
        let cut = try aindex.run(["--library", dir.path], input: Array(stream.prefix(stream.count / 2)))
        #expect(cut.status == 3)
        let full = try aindex.run(["--library", dir.path], input: stream)
        #expect(full.status == 0)
        #expect(full.stderr.contains("5.0 s of audio"))
        let show = try aindex.run(["show", "00000007", "--json", "--library", dir.path])
        #expect(show.stdout.contains(#""duration":5,"#))
        #expect(show.stdout.contains(#""interrupted":false"#))
        #expect(show.stdout.contains(#""completed":true"#))
        let check = try aindex.run(["check", "--library", dir.path])
        #expect(check.stdout == "library is consistent\n")
        let again = try aindex.run(["--library", dir.path], input: stream)
        #expect(again.stderr.contains("0.0 s of audio"))
    }
}

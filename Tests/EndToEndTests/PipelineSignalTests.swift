import Foundation
import Testing

/// Ctrl-C on a live pipeline, done the way a terminal does it: SIGINT to the job's process group.
@Suite struct PipelineSignalTests {
    /// Runs `pipeline` as a job of its own (`set -m`, as an interactive shell does), waits until
    /// each program in `ready` catches SIGINT (10 s at most), sends `signals` to `target` (the
    /// job's process group by default, or the program of that name), and waits until the stages
    /// have written their statuses to the files `statusFiles` (20 s at most); then whatever is left
    /// of the job is killed.
    func runAndSignal(
        _ shell: Shell, _ pipeline: String, ready: [String], signals: [String], target: String? = nil,
        statusFiles: [String], environment: [String: String] = [:]
    ) throws -> Shell.Result {
        let destination = target.map { "$(pgrep -g $group -x \($0))" } ?? "-- -$group"
        return try shell.run(
            """
            set -m
            \(pipeline) &
            group=$(jobs -p %1)
            catches() { pid=$(pgrep -g $group -x $1) && [ $(( 0x$(awk '/^SigCgt/ {print $2}' /proc/$pid/status) & 2 )) -ne 0 ]; }
            for _ in $(seq 100); do ok=1; for p in \(ready.joined(separator: " ")); do catches $p || ok=0; done; [ $ok = 1 ] && break; sleep 0.1; done
            [ $ok = 1 ] || echo "not ready"
            for s in \(signals.joined(separator: " ")); do kill -$s \(destination); sleep 0.3; done
            for _ in $(seq 200); do ls \(statusFiles.joined(separator: " ")) > /dev/null 2>&1 && break; sleep 0.1; done
            kill -KILL -- -$group 2>/dev/null
            wait
            echo statuses $(cat \(statusFiles.joined(separator: " ")) 2>/dev/null)
            """,
            environment: environment)
    }

    @Test func ctrlCOnALivePipelineKeepsTheRecordingWhole() throws {
        let shell = try Shell()
        let env = try shell.alsaFileDevice()
        let result = try runAndSignal(
            shell,
            """
            { acapture -D filecap --preset low --title live; echo $? > s1; } \
              | { asegment --fixed 30; echo $? > s2; } \
              | { atranscribe --engine command --exec 'cat > /dev/null; echo words'; echo $? > s3; } \
              | { aindex --library lib; echo $? > s4; }
            """,
            ready: ["acapture", "asegment", "atranscribe", "aindex"], signals: ["INT"],
            statusFiles: ["s1", "s2", "s3", "s4"], environment: env)
        #expect(!result.lines.contains("not ready"), "\(result.stderr)")
        #expect(result.lines.last == "statuses 0 0 0 0", "\(result.stderr)")
        let sessions = try shell.run("aindex sessions --library lib --json")
        #expect(sessions.statuses == [0])
        let session = try #require(sessions.lines.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((session["duration"] as? Double ?? 0) > 1, "\(sessions.text)")
        #expect(session["interrupted"] as? Bool == true, "acapture ends a signalled session as interrupted: \(sessions.text)")
        let check = try shell.run("aindex check --library lib; find lib -name '*.partial' | wc -l")
        #expect(check.statuses == [0, 0], "\(check.text)\(check.stderr)")
        #expect(check.lines.last == "0", "no .partial file is left")
    }

    @Test func secondSigintStopsAFilterAtOnceAndMarksItsOutput() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -c 1 one.wav synth 4 sine 300; acapture -i one.wav | head -c 100000 > part.apipe")
        // The input stays open: only the signals can end asegment.
        let result = try runAndSignal(
            shell,
            "{ cat part.apipe; sleep 60; } | { asegment --fixed 0.5; echo $? > s2; } | { acat --events > events.jsonl; echo $? > s3; }",
            ready: ["asegment", "acat"], signals: ["INT", "INT"], target: "asegment", statusFiles: ["s2", "s3"])
        #expect(!result.lines.contains("not ready"), "\(result.stderr)")
        // asegment ends by SIGINT (130); acat saw the marked end of its input (3).
        #expect(result.lines.last == "statuses 130 3", "\(result.stderr)")
        let events = try String(contentsOfFile: shell.path("events.jsonl"), encoding: .utf8)
        #expect(events.contains(#""type":"stream.interrupted""#) && events.contains("stopped by SIGINT"), "\(events)")
        #expect(events.contains(#""type":"segment.end""#), "what arrived was segmented and passed on: \(events)")
    }

    @Test func sigtermStopsAindexWhichCommitsWhatItHolds() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -c 1 one.wav synth 4 sine 300; acapture -i one.wav --title held | asegment --fixed 1 | head -c 100000 > part.apipe")
        let result = try runAndSignal(
            shell,
            "{ cat part.apipe; sleep 60; } | { aindex --library lib; echo $? > s2; }",
            ready: ["aindex"], signals: ["TERM"], target: "aindex", statusFiles: ["s2"])
        #expect(!result.lines.contains("not ready"), "\(result.stderr)")
        #expect(result.lines.last == "statuses 143", "\(result.stderr)")
        let sessions = try shell.run("aindex sessions --library lib --json")
        #expect(sessions.text.contains(#""title":"held""#), "\(sessions.text)")
        #expect(sessions.text.contains(#""interrupted":true"#), "\(sessions.text)")
        let check = try shell.run("aindex check --library lib")
        #expect(check.statuses == [0], "\(check.text)\(check.stderr)")
    }
}

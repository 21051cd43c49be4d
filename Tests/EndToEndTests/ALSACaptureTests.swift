import Foundation
import Testing

/// The real ALSA capture API, fed from a raw file by ALSA's `file` plugin (no sound card).
@Suite struct ALSACaptureTests {
    @Test func captureForADurationReadsTheFileThroughALSA() throws {
        let shell = try Shell()
        let env = try shell.alsaFileDevice()
        let result = try shell.run("acapture -D filecap --preset low --duration 1.5 | acat --raw > out.raw; cmp -n 48000 out.raw in.raw && stat -c %s out.raw", environment: env)
        #expect(result.statuses == [0], "\(result.stderr)")
        #expect(result.text == "48000\n")
        let events = try shell.run("acapture -D filecap --preset low --duration 1 | acat --events", environment: env)
        #expect(events.lines.contains { $0.contains("session.end") && $0.contains(#""interrupted":false"#) && $0.contains(#""frames":16000"#) })
        #expect(events.lines.contains { $0.contains(#""source":"alsa:filecap""#) })
    }

    @Test func sigintEndsTheSessionAsInterruptedAndKeepsTheStreamWhole() throws {
        let shell = try Shell()
        let env = try shell.alsaFileDevice()
        let result = try shell.run(
            """
            acapture -D filecap --preset low > >(acat --events > events.jsonl) & pid=$!
            sleep 0.3
            # Until acapture has installed its handler, a background job ignores SIGINT: repeat,
            # for 10 s at most; a capture that ignores them all is killed (status 137).
            for _ in $(seq 100); do kill -INT $pid 2>/dev/null || break; sleep 0.1; done
            kill -KILL $pid 2>/dev/null; wait $pid; echo status=$?
            sleep 0.5; tail -1 events.jsonl; echo lines=$(wc -l < events.jsonl)
            """,
            environment: env)
        #expect(result.lines.first == "status=0", "\(result.stderr)")
        #expect(result.lines.contains { $0.contains("session.end") && $0.contains(#""interrupted":true"#) })
        #expect(result.lines.contains("lines=4"), "format, session.start, one audio run, session.end")
    }

    @Test func sigquitEndsTheCaptureTheDefaultWayWithoutABacktrace() throws {
        let shell = try Shell()
        let env = try shell.alsaFileDevice()
        let result = try shell.run(
            """
            ulimit -c 0
            acapture -D filecap --preset low --duration 100000 > /dev/null & pid=$!
            sleep 0.3
            # Repeat until acapture is gone, for 10 s at most; one that survives them all is killed (137).
            for _ in $(seq 100); do kill -QUIT $pid 2>/dev/null || break; sleep 0.1; done
            kill -KILL $pid 2>/dev/null; wait $pid; echo status=$?
            """,
            environment: env)
        #expect(result.lines == ["status=131"], "\(result.stderr)")
        #expect(!result.stderr.contains("Backtrace") && !result.stderr.contains("Crash"), "\(result.stderr)")
    }

    @Test func missingDeviceIsAClearError() throws {
        let shell = try Shell()
        let env = try shell.alsaFileDevice()
        let result = try shell.run("acapture -D nosuchdevice --duration 1 > /dev/null", environment: env)
        #expect(result.statuses == [69])
        #expect(result.stderr == "acapture: audio device 'nosuchdevice': no such capture device (list devices with `arecord -L`, or define one in ~/.asoundrc)\n")
    }
}

import Foundation
import Testing

/// Paths the user names are opened and written like any Unix tool writes them, never replaced;
/// every write error is exit 74 with a one-line message.
@Suite struct OutputPathTests {
    /// A two-second stream in `a.apipe`.
    func stream(_ shell: Shell) throws {
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 2 sine 300 && acapture -i a.wav > a.apipe")
    }

    /// Character devices like /dev/null and /dev/full: scratch copies when mknod is allowed
    /// (so a broken tool could never replace the machine's own), the real ones otherwise.
    func devices(_ shell: Shell) throws -> (null: String, full: String) {
        let made = try shell.run("mknod null c 1 3 && mknod full c 1 7")
        return made.statuses == [0] ? (shell.path("null"), shell.path("full")) : ("/dev/null", "/dev/full")
    }

    @Test func labelsToAFullDeviceIsAnIOError() throws {
        let shell = try Shell()
        try stream(shell)
        let device = try devices(shell)
        let result = try shell.run("asegment --fixed 1 --labels '\(device.full)' < a.apipe > /dev/null; test -c '\(device.full)' && echo device")
        #expect(result.statuses == [0], "\(result.stderr)")
        #expect(result.text == "device\n")
        #expect(result.stderr == "asegment: cannot write '\(device.full)': No space left on device\n")
        let status = try shell.run("asegment --fixed 1 --labels '\(device.full)' < a.apipe > /dev/null")
        #expect(status.statuses == [74])
    }

    @Test func labelsToANullDeviceLeavesItADevice() throws {
        let shell = try Shell()
        try stream(shell)
        let device = try devices(shell)
        let result = try shell.run("asegment --fixed 1 --labels '\(device.null)' < a.apipe > /dev/null && test -c '\(device.null)' && echo device")
        #expect(result.statuses == [0], "\(result.stderr)")
        #expect(result.text == "device\n")
    }

    @Test func labelsFollowASymlinkAndWriteAFIFO() throws {
        let shell = try Shell()
        try stream(shell)
        let link = try shell.run("""
            ln -s target.txt link.txt
            asegment --fixed 1 --labels link.txt < a.apipe > /dev/null
            test -L link.txt && echo link; cut -f 3 target.txt
            """)
        #expect(link.statuses == [0], "\(link.stderr)")
        #expect(link.lines == ["link", "0 fixed", "1 end-of-stream"])
        let fifo = try shell.run("""
            mkfifo labels.fifo
            timeout 20 cat labels.fifo > got.txt & reader=$!
            timeout 20 asegment --fixed 1 --labels labels.fifo < a.apipe > /dev/null; echo status=$?
            wait $reader; test -p labels.fifo && echo fifo; wc -l < got.txt
            """)
        #expect(fifo.lines == ["status=0", "fifo", "2"], "\(fifo.stderr)")
    }

    @Test func splitRefusesToReplaceANonRegularFile() throws {
        let shell = try Shell()
        try stream(shell)
        let result = try shell.run("""
            acat -o out < a.apipe && name=$(ls out) && rm out/$name && mkfifo out/$name
            acat -o out < a.apipe; echo status=$?; test -p out/$name && echo fifo
            touch notadir; acat -o notadir < a.apipe; echo status=$?
            """)
        #expect(result.lines == ["status=73", "fifo", "status=73"], "\(result.stderr)")
        #expect(result.stderr.contains("it exists and is not a regular file"))
        #expect(result.stderr.contains("acat: cannot create 'notadir': it exists and is not a directory"))
    }

    @Test(arguments: [
        "acat --events < a.apipe", "acat --raw < a.apipe", "acat --wav < a.apipe", "acat < a.apipe",
        "asegment < a.apipe", "asegment --fixed 1 < a.apipe", "aresample -r 8000 < a.apipe", "acapture -i a.wav",
    ])
    func fullDiskIsAnIOErrorWithAMessage(command: String) throws {
        let shell = try Shell()
        try stream(shell)
        let result = try shell.run("\(command) > '\(try devices(shell).full)'")
        let tool = String(command.prefix { $0 != " " })
        #expect(result.statuses == [74], "\(command): \(result.stderr)")
        #expect(result.stderr == "\(tool): write failed: No space left on device\n", "\(command)")
    }
}

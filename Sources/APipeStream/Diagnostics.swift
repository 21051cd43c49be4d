#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for people, on standard error, prefixed with the tool's name.
public enum Diagnostics {
    /// The running tool's name, as the shell knows it.
    public static var toolName: String {
        CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "apipe") } ?? "apipe"
    }

    /// Writes `tool: message` as one line.
    public static func error(_ message: String) {
        line("\(toolName): \(message)")
    }

    /// Writes `tool: warning: message` as one line.
    public static func warning(_ message: String) {
        line("\(toolName): warning: \(message)")
    }

    /// Writes a line to standard error as is; errors writing it are ignored (nowhere left to say).
    public static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { try? SystemIO.writeAll(2, $0) }
    }

    /// Whether progress lines should be drawn (standard error is a terminal).
    public static var stderrIsTerminal: Bool { SystemIO.isTerminal(2) }
}

/// The version every tool reports and writes into session metadata.
public enum APipeVersion {
    public static let current = "0.1.0"
}

import APipeStream
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Why a library operation failed; every case reads as one line.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The directory exists, holds files, and is not an apipe library.
    case notALibrary(path: String)
    /// The library directory cannot be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The library's database file is not a database, or is corrupt.
    case damaged(path: String, reason: String)
    /// The database refused a write because the disk or file is read-only.
    case readOnly(path: String)
    /// The disk is full.
    case diskFull(path: String)
    /// A file could not be written, renamed or removed.
    case file(path: String, reason: String)
    /// An input named on the command line cannot be opened.
    case cannotRead(path: String, reason: String)
    /// No session matches the identifier, or more than one does.
    case unknownSession(String)
    case ambiguousSession(String, matches: Int)
    /// The search query does not parse.
    case badQuery(String)
    /// A command-line value is malformed (a date, an age).
    case badValue(String)
    /// Any other database failure, already worded for people.
    case database(String)

    public var description: String {
        switch self {
        case .notALibrary(let path):
            "\(path) is not an apipe library (no library.sqlite in a non-empty directory); choose a new or empty directory"
        case .cannotOpen(let path, let reason): "cannot open library \(path): \(reason)"
        case .damaged(let path, let reason):
            "library \(path) is damaged: \(Library.databaseName) \(reason); restore it from a backup, salvage it with "
                + "sqlite3 \(Library.databaseName) .recover, or move it aside to start an empty library"
        case .readOnly(let path): "library \(path) is read-only; nothing was changed"
        case .diskFull(let path): "disk full while writing to \(path); the library keeps its last committed state"
        case .file(let path, let reason): "\(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .unknownSession(let id): "no session matches '\(id)'"
        case .ambiguousSession(let id, let matches): "'\(id)' matches \(matches) sessions; give more of the id"
        case .badQuery(let reason): "bad search query: \(reason)"
        case .badValue(let reason): reason
        case .database(let reason): "database error: \(reason)"
        }
    }

    /// Words a database error for people, naming the library file.
    static func wrap(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_READONLY: return StoreError.readOnly(path: path)
        case .SQLITE_FULL: return StoreError.diskFull(path: path)
        case .SQLITE_CANTOPEN: return StoreError.cannotOpen(path: path, reason: error.message ?? "cannot open database file")
        case .SQLITE_NOTADB: return StoreError.damaged(path: path, reason: "is not an SQLite database")
        case .SQLITE_CORRUPT: return StoreError.damaged(path: path, reason: "is corrupt (\(error.message ?? "malformed"))")
        default: return StoreError.database(error.message ?? "\(error.resultCode)")
        }
    }

    /// Describes an errno value.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

extension StoreError: ToolFailure {
    public var exitStatus: ExitStatus {
        switch self {
        case .notALibrary, .cannotOpen, .damaged: .cannotCreate
        case .readOnly, .diskFull, .file: .ioError
        case .cannotRead: .noInput
        case .unknownSession, .ambiguousSession, .badQuery, .badValue: .usage
        case .database: .failure
        }
    }
}

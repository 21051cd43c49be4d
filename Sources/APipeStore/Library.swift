import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// An apipe library: a directory holding `library.sqlite` (WAL) and the audio files under `audio/`.
///
/// Several processes may open one library at once: WAL lets readers run beside the writer, and
/// a busy timeout makes a second writer wait its turn instead of failing.
public final class Library: Sendable {
    public static let databaseName = "library.sqlite"
    /// How long a write waits for another process's transaction before giving up.
    public static let busyTimeout: TimeInterval = 30

    /// The library directory, absolute.
    public let root: URL
    public let pool: DatabasePool

    /// Opens (creating when new or empty) the library at `root`.
    public init(root: URL, readOnly: Bool = false) throws {
        self.root = root.standardizedFileURL
        let path = self.root.path
        try Library.prepareDirectory(path, create: !readOnly)
        var configuration = Configuration()
        configuration.busyMode = .timeout(Library.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path + "/" + Library.databaseName, configuration: configuration)
            let migrator = LibrarySchema.migrator
            // Queries should not queue behind another process's write just to learn the schema is current.
            if !readOnly, try !pool.read({ try migrator.hasCompletedMigrations($0) }) {
                // Two processes opening a new library would both create the tables; the second
                // fails. The migrator checks again what is applied once it holds the lock.
                try Library.withLock(on: path) { try migrator.migrate(pool) }
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Runs `body` holding an exclusive flock(2) on the library directory, which serialises
    /// schema changes across processes (a lock on a file of the database itself would fight
    /// SQLite's own POSIX locks).
    private static func withLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.cannotOpen(path: path, reason: StoreError.reason(errno)) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreError.cannotOpen(path: path, reason: "cannot lock: \(StoreError.reason(errno))") }
        }
        return try body()
    }

    /// The directory from `--library`, else `APIPE_LIBRARY`, else `$XDG_DATA_HOME/apipe`, else
    /// `~/.local/share/apipe`.
    public static func defaultRoot(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option) }
        if let path = environment["APIPE_LIBRARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data).appendingPathComponent("apipe")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/apipe")
    }

    /// The absolute path of a path stored in the library (relative to the root unless absolute).
    public func absolutePath(_ stored: String) -> String {
        stored.hasPrefix("/") ? stored : root.path + "/" + stored
    }

    /// The absolute path of an audio file the library owns and may delete: a path stored under
    /// `audio/` without `.`, `..` or empty components. Nil for anything else, so that a row
    /// (written by an older aindex, or by hand) can never lead a deletion outside the library.
    public func ownedPath(_ stored: String) -> String? {
        let components = stored.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 1, components[0] == "audio",
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        return root.path + "/" + stored
    }

    /// Bytes the database files take on disk.
    public func databaseSize() -> Int64 {
        ["", "-wal", "-shm"].reduce(0) { total, suffix in
            total + Library.fileSize(root.path + "/" + Library.databaseName + suffix)
        }
    }

    /// Size of a file, 0 when it does not exist.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Creates the directory if needed; refuses a non-empty directory that is not a library.
    private static func prepareDirectory(_ path: String, create: Bool) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StoreError.notALibrary(path: path) }
            if fileExists(path + "/" + databaseName) { return }
            // Another process may be creating this library right now: SQLite's own files
            // (the database, its -wal, -shm or -journal) do not make the directory foreign.
            let entries = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            guard entries.allSatisfy({ $0.hasPrefix(databaseName) }) else { throw StoreError.notALibrary(path: path) }
            return
        }
        guard create else { throw StoreError.cannotOpen(path: path, reason: "no library there yet") }
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot create the directory (\(reason(of: error)))")
        }
    }

    private static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return StoreError.reason(Int32(underlying.code))
        }
        return nsError.localizedDescription
    }
}

import GRDB

/// The library's tables, indexes and full-text index, as versioned migrations.
///
/// Never edit a shipped migration: add a new one. Times are stored as Unix seconds (REAL) for
/// wall-clock instants and as seconds from the session start for positions in a recording.
public enum LibrarySchema {
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: sessions, segments, transcriptions, full-text search") { db in
            try db.execute(sql: v1)
        }
        return migrator
    }

    /// The newest migration identifier this build knows.
    public static let latestMigration = "v1: sessions, segments, transcriptions, full-text search"

    static let v1 = """
        CREATE TABLE session (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            duration REAL NOT NULL DEFAULT 0,
            frames INTEGER NOT NULL DEFAULT 0,
            sample_rate INTEGER NOT NULL DEFAULT 0,
            bit_depth INTEGER NOT NULL DEFAULT 16,
            channels INTEGER NOT NULL DEFAULT 1,
            format TEXT NOT NULL DEFAULT 'wav',
            quality_preset TEXT,
            audio_path TEXT,
            audio_size INTEGER NOT NULL DEFAULT 0,
            audio_owned INTEGER NOT NULL DEFAULT 1,
            finalized INTEGER NOT NULL DEFAULT 0,
            completed INTEGER NOT NULL DEFAULT 0,
            interrupted INTEGER NOT NULL DEFAULT 0,
            interruption TEXT,
            xruns INTEGER NOT NULL DEFAULT 0,
            source TEXT,
            device TEXT,
            host TEXT,
            os TEXT,
            app_version TEXT,
            notes TEXT,
            segment_count INTEGER NOT NULL DEFAULT 0,
            completed_count INTEGER NOT NULL DEFAULT 0,
            failed_count INTEGER NOT NULL DEFAULT 0,
            word_count INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX session_created ON session(created_at);
        CREATE INDEX session_completed ON session(completed, created_at);
        CREATE INDEX session_source ON session(source);

        CREATE TABLE segment (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            start_time REAL NOT NULL,
            end_time REAL NOT NULL,
            duration REAL NOT NULL,
            probability REAL,
            reason TEXT,
            audio_path TEXT,
            audio_size INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
            retry_count INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            processing_started_at REAL,
            processing_ended_at REAL,
            UNIQUE (session_id, idx)
        );
        CREATE INDEX segment_status ON segment(status, session_id);

        CREATE TABLE transcription (
            id INTEGER PRIMARY KEY,
            segment_id INTEGER NOT NULL UNIQUE REFERENCES segment(id) ON DELETE CASCADE,
            text TEXT NOT NULL,
            language TEXT,
            confidence REAL,
            method TEXT NOT NULL,
            provider TEXT NOT NULL,
            model TEXT,
            processing_duration REAL NOT NULL DEFAULT 0,
            word_count INTEGER NOT NULL DEFAULT 0,
            character_count INTEGER NOT NULL DEFAULT 0,
            phrases TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );

        CREATE VIRTUAL TABLE transcription_fts USING fts5(
            text, content = 'transcription', content_rowid = 'id',
            tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE TRIGGER transcription_fts_insert AFTER INSERT ON transcription BEGIN
            INSERT INTO transcription_fts(rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER transcription_fts_delete AFTER DELETE ON transcription BEGIN
            INSERT INTO transcription_fts(transcription_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER transcription_fts_update AFTER UPDATE OF text ON transcription BEGIN
            INSERT INTO transcription_fts(transcription_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO transcription_fts(rowid, text) VALUES (new.id, new.text);
        END;

        CREATE VIRTUAL TABLE session_fts USING fts5(
            title, notes, content = 'session', content_rowid = 'id',
            tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE TRIGGER session_fts_insert AFTER INSERT ON session BEGIN
            INSERT INTO session_fts(rowid, title, notes) VALUES (new.id, new.title, new.notes);
        END;
        CREATE TRIGGER session_fts_delete AFTER DELETE ON session BEGIN
            INSERT INTO session_fts(session_fts, rowid, title, notes) VALUES ('delete', old.id, old.title, old.notes);
        END;
        CREATE TRIGGER session_fts_update AFTER UPDATE OF title, notes ON session BEGIN
            INSERT INTO session_fts(session_fts, rowid, title, notes) VALUES ('delete', old.id, old.title, old.notes);
            INSERT INTO session_fts(rowid, title, notes) VALUES (new.id, new.title, new.notes);
        END;
        """
}

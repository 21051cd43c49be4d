import APipeStream
import Foundation
import GRDB
import Testing
@testable import APipeStore

@Suite struct QueryTests {
    let utc = TimeZone(identifier: "UTC")!

    func library() throws -> TemporaryLibrary {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        try temp.ingest(try StreamFixture.session("0a000000-0000-4000-8000-000000000002", title: "Standup",
                                                  created: "2026-11-21T08:00:00Z", texts: ["Yesterday I fixed the build."]))
        return temp
    }

    func detail(_ temp: TemporaryLibrary) throws -> SessionDetail {
        let queries = LibraryQueries(library: temp.library)
        return try queries.show(try queries.resolve("6f1c"))
    }

    @Test func sessionsAreGroupedByDayNewestFirst() throws {
        let temp = try library()
        let list = try LibraryQueries(library: temp.library).sessions(SessionFilter())
        let text = ReportRenderer(json: false, zone: utc).sessions(list, page: 1)
        #expect(text == """
            2026-11-21
              ID        TIME   DURATION  SEGS  TRANSCRIBED  TITLE
              0a000000  08:00      0:03     2      1/2 50%  Standup

            2026-11-20
              ID        TIME   DURATION  SEGS  TRANSCRIBED  TITLE
              6f1c2a3b  09:30      0:03     2     2/2 100%  Budget meeting

            """)
        let json = ReportRenderer(json: true, zone: utc).sessions(Array(list.prefix(1)), page: 1)
        #expect(json == #"{"completed":true,"created":"2026-11-21T08:00:00Z","duration":3,"failed":0,"id":"0a000000-0000-4000-8000-000000000002","interrupted":false,"pending":1,"segments":2,"title":"Standup","transcribed":1,"words":5}"# + "\n")
    }

    @Test func sessionFiltersAndPages() throws {
        let temp = try library()
        let queries = LibraryQueries(library: temp.library)
        #expect(try queries.sessions(SessionFilter(transcription: .completed)).map(\.title) == ["Budget meeting"])
        #expect(try queries.sessions(SessionFilter(transcription: .pending)).map(\.title) == ["Standup"])
        #expect(try queries.sessions(SessionFilter(page: 2, limit: 1)).map(\.title) == ["Budget meeting"])
        #expect(try queries.sessions(SessionFilter(page: 3, limit: 1)).isEmpty)
        let day = try TimeText.instant("2026-11-21", now: 0, zone: utc)
        #expect(try queries.sessions(SessionFilter(since: day)).map(\.title) == ["Standup"])
        #expect(try queries.sessions(SessionFilter(until: day)).map(\.title) == ["Budget meeting"])
    }

    @Test func prefixesResolveUnlessAmbiguous() throws {
        let temp = try library()
        let queries = LibraryQueries(library: temp.library)
        #expect(throws: StoreError.unknownSession("ffff")) { try queries.resolve("ffff") }
        #expect(throws: StoreError.unknownSession("x'; --")) { try queries.resolve("x'; --") }
        try temp.ingest(try StreamFixture.session("6f1c9999-0000-4000-8000-000000000009", title: "Other"))
        #expect(throws: StoreError.ambiguousSession("6f1c", matches: 2)) { try queries.resolve("6f1c") }
        #expect(try queries.resolve("6F1C2A3B") > 0)
    }

    @Test func showListsSegmentsTranscriptAndPace() throws {
        let temp = try library()
        let text = ReportRenderer(json: false, zone: utc).show(try detail(temp))
        #expect(text == """
            session   6f1c2a3b-0000-4000-8000-000000000001
            title     Budget meeting
            created   2026-11-20 09:30
            duration  0:03
            audio     audio/6f/6f1c2a3b-0000-4000-8000-000000000001/session.wav (16000 Hz, 1 ch, 96044 bytes)
            segments  2: 2 transcribed, 0 failed, 0 pending
            words     9 (180.0 per minute)

            #         START           END  STATUS     TEXT
            0  00:00:00.500  00:00:01.500  completed  We agreed on the budget.
            1  00:00:02.000  00:00:02.750  completed  The meeting is over.

            transcript:
            We agreed on the budget.
            The meeting is over.

            """)
    }

    @Test func exportFormatsAreExact() throws {
        let d = try detail(try library())
        #expect(TranscriptExporter.export(d, as: .txt) == "We agreed on the budget.\nThe meeting is over.\n")
        #expect(TranscriptExporter.export(d, as: .srt) == """
            1
            00:00:00,500 --> 00:00:01,500
            We agreed on the budget.

            2
            00:00:02,000 --> 00:00:02,750
            The meeting is over.

            """)
        #expect(TranscriptExporter.export(d, as: .vtt) == """
            WEBVTT

            00:00:00.500 --> 00:00:01.500
            We agreed on the budget.

            00:00:02.000 --> 00:00:02.750
            The meeting is over.

            """)
        #expect(TranscriptExporter.export(d, as: .audacity) == "0.500000\t1.500000\tWe agreed on the budget.\n2.000000\t2.750000\tThe meeting is over.\n")
        let json = TranscriptExporter.export(d, as: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["transcript"] as? String == "We agreed on the budget.\nThe meeting is over.")
        #expect((object["segments"] as? [[String: Any]])?.count == 2)
        #expect(object["words_per_minute"] as? Double == 180)
    }

    @Test func cueTimesPassAnHour() {
        #expect(TimeText.cue(3723.0456, separator: ",") == "01:02:03,046")
        #expect(TimeText.duration(3723) == "1:02:03")
    }

    @Test func searchRanksSnippetsAndPlaces() throws {
        let temp = try library()
        let searcher = Searcher(library: temp.library)
        let hits = try searcher.search(try SearchQuery("budget"))
        #expect(hits.count == 2)
        let segmentHit = try #require(hits.first { $0.index != nil })
        #expect(segmentHit.index == 0 && segmentHit.start == 0.5 && segmentHit.end == 1.5)
        #expect(ReportRenderer(json: false).highlight(segmentHit.snippet, open: "[", close: "]") == "We agreed on the [budget].")
        #expect(hits.contains { $0.index == nil && $0.title == "Budget meeting" })
        #expect(try searcher.search(try SearchQuery("\"meeting is over\"")).map(\.index) == [1])
        #expect(try searcher.search(try SearchQuery("meetings over")).map(\.index) == [1])
        #expect(try searcher.search(try SearchQuery("yester*")).map(\.session) == ["0a000000-0000-4000-8000-000000000002"])
        #expect(try searcher.search(try SearchQuery("fixed OR agreed")).count == 2)
        #expect(try searcher.search(try SearchQuery("meeting NOT budget")).compactMap(\.index) == [1])
        #expect(try searcher.search(try SearchQuery("build-system")).isEmpty)
        let json = ReportRenderer(json: true).search(try searcher.search(try SearchQuery("fixed")))
        #expect(json.hasPrefix(#"{"end":1.5,"index":0,"score":"#))
        #expect(json.contains(#""snippet":"Yesterday I [fixed] the build.""#))
    }

    @Test func malformedQueriesAreClearErrors() throws {
        #expect(throws: StoreError.badQuery("unbalanced quote")) { try SearchQuery("\"budget") }
        #expect(throws: StoreError.badQuery("'AND' needs a word before it")) { try SearchQuery("AND budget") }
        #expect(throws: StoreError.badQuery("'OR' needs a word after it")) { try SearchQuery("budget OR") }
        #expect(throws: StoreError.badQuery("'(' without a matching ')'")) { try SearchQuery("(budget") }
        #expect(throws: StoreError.badQuery("nothing to search for")) { try SearchQuery("  ") }
        #expect(try SearchQuery("o'clock budget-meeting").expression == #""o'clock" AND "budget-meeting""#)
    }

    @Test func statsCountEverything() throws {
        let temp = try library()
        let stats = try LibraryQueries(library: temp.library).stats()
        #expect(stats.sessions == 2 && stats.segments == 4 && stats.transcriptions == 3)
        #expect(stats.statuses == ["completed": 3, "pending": 1])
        #expect(stats.audioSeconds == 6)
        #expect(stats.sessionAudioBytes == 2 * 96044)
        #expect(stats.databaseBytes > 0)
    }
}

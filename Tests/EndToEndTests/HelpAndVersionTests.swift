import Testing

/// Every tool answers --help and --version, and its help names what the man page names.
@Suite struct HelpAndVersionTests {
    static let tools = ["acapture", "asegment", "aresample", "atranscribe", "aindex", "acat"]

    @Test(arguments: tools)
    func helpAndVersion(tool: String) throws {
        let shell = try Shell()
        let help = try shell.run("\(tool) --help")
        #expect(help.statuses == [0])
        #expect(help.text.hasPrefix("OVERVIEW: "))
        let version = try shell.run("\(tool) --version")
        #expect(version.statuses == [0])
        #expect(version.text == "0.1.0\n")
    }

    @Test(arguments: tools)
    func everyLongOptionInHelpIsInTheManPage(tool: String) throws {
        let shell = try Shell()
        let help = try shell.run("\(tool) --help")
        let page = try String(contentsOf: Shell.packageRoot.appendingPathComponent("man/\(tool).1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        let options = Set(help.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "[" || $0 == "]" })
            .filter { $0.hasPrefix("--") && $0.count > 3 }
            .map { String($0.prefix { $0 == "-" || $0.isLetter || $0.isNumber }) })
            .subtracting(["--help", "--version"])
        for option in options {
            #expect(page.contains(option), "\(tool) --help shows \(option), man/\(tool).1 does not")
        }
    }
}

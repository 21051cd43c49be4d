import APipeCLI

@main
struct Main {
    static func main() async {
        await ToolRunner.main(ATranscribe.self)
    }
}

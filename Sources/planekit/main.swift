import PlaneKitCLI

// Every command except the live view runs here; `view` and `stream --view` hand over to
// planekit-view (see LiveViewLauncher), so no command pays for the web server's libraries.
// Option values that start with a minus sign (`--up -0.1,-0.9,-0.4`) are joined to their option
// first, so the parser does not take them for options.
PlaneKitCommand.main(NegativeNumberArguments.joined(Array(CommandLine.arguments.dropFirst())))

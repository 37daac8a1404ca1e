import PlaneKitCLI

// Every command except the live view runs here; `view` and `stream --view` hand over to
// planekit-view (see LiveViewLauncher), so no command pays for the web server's libraries.
PlaneKitCommand.main()

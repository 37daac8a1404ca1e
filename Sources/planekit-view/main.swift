import PlaneKitCLI

// The same commands as planekit, with the live view's server linked in: `planekit view` and
// `planekit stream --view` continue here (LiveViewLauncher).
LiveViewLauncher.starter = { address, command in try LiveView.start(address, command: command) }
PlaneKitCommand.main()

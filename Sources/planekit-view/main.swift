import PlaneKitCLI

// The same commands as planekit, with the live view's server and the shared spaces' network
// linked in: `planekit view`, `planekit stream --view` and `stream --host/--join` continue here
// (LiveViewLauncher, ShareLauncher).
LiveViewLauncher.starter = { address, command in try LiveView.start(address, command: command) }
ShareLauncher.starter = { request in try SharedSpace(request) }
ShareLauncher.bench = { peers, rate, seconds, megabytes in try SharedSpace.bench(peers: peers, rate: rate, seconds: seconds, megabytes: megabytes) }
PlaneKitCommand.main()

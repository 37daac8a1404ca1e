import PlaneKitCLI

// The same commands as planekit, with the live view's server and the shared spaces' network
// linked in: `planekit view`, `planekit stream --view`, `stream --host/--join` and `pointer` continue
// here (LiveViewLauncher, ShareLauncher, PointerLauncher).
LiveViewLauncher.starter = { address, command in try LiveView.start(address, command: command) }
ShareLauncher.starter = { request in try SharedSpace(request) }
PointerLauncher.starter = { request in try PointerSpace(request) }
ShareLauncher.bench = { peers, rate, seconds, megabytes in try SharedSpace.bench(peers: peers, rate: rate, seconds: seconds, megabytes: megabytes) }
PlaneKitCommand.main()

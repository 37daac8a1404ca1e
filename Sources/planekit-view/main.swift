import PlaneKitCLI
import PlaneKitCommandSupport

// The same commands as planekit, with the live view's server and the shared spaces' network
// linked in: `planekit view`, `planekit stream --view`, `stream --host/--join`, `pointer` and
// `view --join` continue here (LiveViewLauncher, ShareLauncher, PointerLauncher, ObserverLauncher).
LiveViewLauncher.starter = { address, command in try LiveView.start(address, command: command) }
ShareLauncher.starter = { request in try SharedSpace(request) }
PointerLauncher.starter = { request in try PointerSpace(request) }
ObserverLauncher.starter = { request, listen in try SpaceObserver.run(request, listen: listen) }
ShareLauncher.bench = { peers, rate, seconds, megabytes in try SharedSpace.bench(peers: peers, rate: rate, seconds: seconds, megabytes: megabytes) }
PlaneKitCommand.main(NegativeNumberArguments.joined(Array(CommandLine.arguments.dropFirst())))

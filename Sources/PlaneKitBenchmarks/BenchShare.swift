import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport

/// `planekit bench share`: latency and throughput of a shared space on loopback (docs/protocol.md).
struct BenchShare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Shared spaces on loopback: pose and object-change latency with N peers, and a world map's transfer.",
        discussion: """
            Starts a host and N−1 joiners in one process (real TLS 1.3 connections and sealed UDP \
            on loopback, each peer on its own event loop) and a pointer, has every peer send its \
            pose --rate times a second, one joiner change an object and the pointer send an \
            attitude as often, and measures: a pose's \
            latency from sealing to being taken from another peer's inbox (relayed by the host), \
            an object change's latency to every other peer, an attitude's latency to every device \
            peer, and how long a joiner takes to get a \
            world map of --map-mb MB (connect, handshake, transfer, decode). Medians of --runs runs. \
            Runs in planekit-view (the network's executable); planekit hands it over.
            """)

    @Option(help: "Peers in the space, the host included.")
    var peers = 8

    @Option(help: "Poses (and object changes) a second from each peer.")
    var rate = 60.0

    @Option(help: "Seconds of poses in each run.")
    var seconds = 3.0

    @Option(name: .customLong("map-mb"), help: "The world map's size (MB, encoded).")
    var mapMegabytes = 5.0

    @Option(help: "Runs; the figures are their medians.")
    var runs = 3

    func validate() throws {
        guard (2...64).contains(peers) else { throw ValidationError("--peers must be from 2 to 64") }
        guard rate > 0, rate <= 1000, seconds > 0, seconds <= 600, mapMegabytes > 0, mapMegabytes <= 200, runs >= 1 else {
            throw ValidationError("--rate (0–1000], --seconds (0–600], --map-mb (0–200] and --runs ≥ 1")
        }
    }

    func run() throws {
        guard let bench = ShareLauncher.bench else { try ViewExecutable.handOver(command: "bench share", purpose: "the shared-space bench") }
        var figures: [ShareBenchFigures] = []
        for _ in 0..<runs {
            do {
                figures.append(try bench(peers, rate, seconds, mapMegabytes))
            } catch {
                Diagnostics.warn("bench share: \(error)")
                throw ExitCode(1)
            }
        }
        func median(_ values: [Double]) -> String {
            let sorted = values.sorted()
            let m = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
            return m.isFinite ? CFormat.string("%.2f", m) : ">100"
        }
        print("bench share: \(peers) peers, poses and object changes at \(CFormat.string("%g", rate)) Hz for \(CFormat.string("%g", seconds)) s, loopback, medians of \(runs) runs")
        print("  pose latency          ms  p50 \(median(figures.map(\.poseP50)))  p99 \(median(figures.map(\.poseP99)))  (\(figures[0].poses) poses a run)")
        print("  object change latency ms  p50 \(median(figures.map(\.objectP50)))  p99 \(median(figures.map(\.objectP99)))  (\(figures[0].objects) arrivals a run)")
        print("  pointer attitude      ms  p50 \(median(figures.map(\.pointerP50)))  p99 \(median(figures.map(\.pointerP99)))  (\(figures[0].attitudes) arrivals a run)")
        print("  world map of \(CFormat.string("%.2f", Double(figures[0].mapBytes) / 1e6)) MB: join (connect, TLS, transfer, decode) s  median \(median(figures.map(\.mapSeconds)))")
    }
}

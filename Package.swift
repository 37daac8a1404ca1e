// swift-tools-version: 6.1
//
// PlaneKit: plane detection, hit testing and object placement for point clouds and depth frames.
//
// The targets read as the pipeline, and imports only point down it:
//   geometry → input → detection → hit testing → anchors → camera tracking → maps → stream
//   → share → view → CLI
// Beside it: synthesis (generated rooms, sensors, walks), evaluation, pictures, benchmarks
// and the C API. Each target holds one idea; see the README's "The code".
// PCL is reached through one C++ bridge target with a C interface (PCLBridge); it finds PCL
// through pkg-config system-library targets, with no unsafe flags, so other packages can depend
// on this one. The bridge is its own shared library (the PlaneKitPCLBridge product), opened at
// run time by PCLBridgeInterface the first time an unorganized cloud needs PCL: PCL's ~60
// shared libraries would otherwise cost every start of the CLI over 100 ms.
import PackageDescription

let package = Package(
    name: "PlaneKit",
    products: [
        .library(name: "PlaneKitGeometry", targets: ["PlaneKitGeometry"]),
        .library(name: "PlaneKit", targets: ["PlaneKit"]),
        .executable(name: "planekit", targets: ["planekit"]),
        .executable(name: "planekit-view", targets: ["planekit-view"]),
        // Built beside the executable by `swift build`; loaded only when PCL is needed.
        .library(name: "PlaneKitPCLBridge", type: .dynamic, targets: ["PCLBridge"]),
        // The C API (Sources/CPlaneKit/include/planekit.h) as libPlaneKitC.so, for C, C++ and
        // the Python package in python/.
        .library(name: "PlaneKitC", type: .dynamic, targets: ["PlaneKitC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The live view's HTTP and WebSocket server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Shared sessions: TLS 1.3 over TCP, AEAD-sealed UDP, the space's certificate.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // MARK: System libraries, found with pkg-config.
        .systemLibrary(
            name: "CPCLSegmentation", path: "Sources/System/CPCLSegmentation", pkgConfig: "pcl_segmentation",
            providers: [.apt(["libpcl-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Whole-buffer inflate, two to three times zlib's speed, for PNG and TIFF decoding.
        .systemLibrary(
            name: "CLibdeflate", path: "Sources/System/CLibdeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // DNS-SD through avahi-daemon (over D-Bus), for finding shared spaces on the local network.
        // No pkgConfig: Debian's avahi-client.pc adds -D_REENTRANT, which SwiftPM refuses with a
        // warning on every build; the headers are in /usr/include and the module map links the
        // two libraries itself.
        .systemLibrary(
            name: "CAvahi", path: "Sources/System/CAvahi",
            providers: [.apt(["libavahi-client-dev"])]),

        // MARK: The pipeline.
        .target(name: "PlaneKitGeometry"),
        // Linux calls Swift's Glibc module does not declare (pipe sizes, mallopt).
        .target(name: "CLinuxIO"),
        // The bridge's C types and its run-time loader (dlopen), without PCL.
        .target(name: "PCLBridgeInterface"),
        .target(
            name: "PCLBridge", dependencies: ["PCLBridgeInterface", "CPCLSegmentation"],
            cxxSettings: [.define("NDEBUG")]),
        .target(name: "PlaneKitInput", dependencies: ["PlaneKitGeometry", "CZlib", "CLibdeflate"]),
        // Point cloud files: PCD, PLY and XYZ readers and writers, and the reader that opens any
        // supported file (clouds and depth images alike).
        .target(name: "PlaneKitCloudIO", dependencies: ["PlaneKitGeometry", "PlaneKitInput"]),
        // Scoring a segmentation against ground truth: Hoover et al.'s evaluation, mutual overlap.
        .target(name: "PlaneKitEvaluation", dependencies: ["PlaneKitGeometry", "PlaneKitInput"]),
        // Seeded, platform-independent random numbers and math, so generated data is the same everywhere.
        .target(name: "PlaneKitSeededRandom", dependencies: ["PlaneKitGeometry"]),
        // Generated rooms and tabletops with their true planes, and the simulated depth sensors that see them.
        .target(name: "PlaneKitSynthesis", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "PlaneKitSeededRandom"]),
        // Generated walks through those rooms: camera paths, frame sequences, accelerometer readings.
        .target(name: "PlaneKitSyntheticWalks", dependencies: ["PlaneKitGeometry", "PlaneKitSeededRandom", "PlaneKitSynthesis"]),
        // A detected plane: its description (pose, extent, boundary), alignment and classification.
        .target(name: "PlaneKitPlanes", dependencies: ["PlaneKitGeometry"]),
        // Planes in organized clouds and depth frames: the cell grid, region growing, pixel-level
        // boundaries, and the sensor's noise and quantisation measured from the data.
        .target(name: "PlaneKitDetection", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes"]),
        // Planes in unorganized clouds (PCL's region growing through the bridge, RANSAC), and
        // PlaneFinder, which sends each cloud to the detector that suits it.
        .target(
            name: "PlaneKitUnorganizedDetection",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes", "PlaneKitDetection", "PCLBridgeInterface",
            ]),
        .target(name: "PlaneKitHitTesting", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes", "PlaneKitDetection"]),
        // Plane anchors with stable identifiers, placed objects, the focus indicator and the snap
        // rule: `Session`, ARKit's session without the camera tracking.
        .target(
            name: "PlaneKitAnchors",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitHitTesting",
            ]),
        // The camera's pose from depth alone (point-to-plane ICP against keyframes), with gravity
        // and the accelerometer when given, and the trajectory error against a reference.
        .target(name: "PlaneKitCameraTracking", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes", "PlaneKitDetection"]),
        // World maps (saving, loading, their file format) and relocalization into them.
        .target(
            name: "PlaneKitMaps",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitHitTesting",
                "PlaneKitAnchors",
            ]),
        // PNG pictures: segmentations, a stream's frames, world maps, evaluation curves.
        .target(
            name: "PlaneKitPictures",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitEvaluation", "PlaneKitDetection", "PlaneKitAnchors",
                "PlaneKitMaps",
            ]),
        // The frame stream's records: reading and writing them, on pipes, files and sockets.
        .target(name: "PlaneKitStreamFormat", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "CLinuxIO"]),
        .target(
            name: "PlaneKitStream",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitPlanes", "PlaneKitDetection",
                "PlaneKitHitTesting", "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitMaps",
                "PlaneKitPictures", "PlaneKitStreamFormat",
            ]),
        .target(
            name: "PlaneKit",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitUnorganizedDetection", "PlaneKitHitTesting",
                "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitMaps", "PlaneKitEvaluation", "PlaneKitPictures", "PlaneKitStreamFormat", "PlaneKitStream",
            ]),
        // The C API: planekit.h and the thread's last error (C), the calls themselves (Swift, @_cdecl).
        .target(name: "CPlaneKit"),
        .target(
            name: "PlaneKitC",
            dependencies: [
                "CPlaneKit", "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitEvaluation",
                "PlaneKitSynthesis", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitUnorganizedDetection",
                "PlaneKitHitTesting", "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitStreamFormat", "PlaneKitStream",
            ]),
        // The live view: a stream's events pushed to browsers over a WebSocket. Not in the
        // `PlaneKit` library, so that library does not bring in a web server.
        .target(
            name: "PlaneKitView",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitAnchors", "PlaneKitMaps", "PlaneKitStreamFormat",
                "PlaneKitStream", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]),
        // DNS-SD advertising and resolving (`_planekit._tcp`) through Avahi; only planekit-view
        // links it, so `planekit` never loads libavahi and libdbus.
        .target(name: "PlaneKitDiscovery", dependencies: ["CAvahi"]),
        // Shared sessions: several streams in one space, over TLS and sealed UDP. Only planekit-view
        // links it (planekit hands `stream --host/--join` over), so planekit loads no network library.
        .target(
            name: "PlaneKitShare",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitHitTesting", "PlaneKitAnchors",
                "PlaneKitMaps", "PlaneKitStreamFormat", "PlaneKitStream",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        // What the commands share: their common options, diagnostics on stderr, output formats,
        // recorded walks (TUM RGB-D, 7-Scenes) and the helper processes they start.
        .target(
            name: "PlaneKitCommandSupport",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitSynthesis", "PlaneKitPlanes",
                "PlaneKitDetection", "PlaneKitUnorganizedDetection", "PlaneKitHitTesting", "PlaneKitAnchors",
                "PlaneKitMaps", "PlaneKitStreamFormat", "PlaneKitStream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `planekit bench …`: PlaneKit next to PCL and Open3D on the same frames, in one run.
        .target(
            name: "PlaneKitBenchmarks",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitSeededRandom",
                "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitPlanes", "PlaneKitDetection",
                "PlaneKitUnorganizedDetection", "PlaneKitHitTesting", "PlaneKitAnchors", "PlaneKitCameraTracking",
                "PlaneKitMaps", "PlaneKitStream", "PlaneKitCommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Every command, as a library: the two executables below are its entry points.
        .target(
            name: "PlaneKitCLI",
            // The stages directly, not through the re-exporting `PlaneKit`: an incremental build
            // does not recompile a client that reaches a module through `@_exported import` when
            // only a private stored property of one of its public structs changed, and the stale
            // client then runs with the old layout and corrupts memory (swiftlang/swift#89636; it
            // crashed `bench relocalization` after `MapTracking` gained a private property).
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitUnorganizedDetection", "PlaneKitHitTesting",
                "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitMaps", "PlaneKitEvaluation", "PlaneKitPictures", "PlaneKitStreamFormat", "PlaneKitStream", "PlaneKitCommandSupport",
                "PlaneKitBenchmarks", "CLinuxIO", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // planekit: every command, without the live view's web server (and the Foundation it loads).
        .executableTarget(name: "planekit", dependencies: ["PlaneKitCLI"]),
        // planekit-view: the same commands with the live view; planekit hands view commands to it.
        .executableTarget(
            name: "planekit-view",
            dependencies: [
                "PlaneKitGeometry", "PlaneKitInput", "PlaneKitSynthesis", "PlaneKitDetection",
                "PlaneKitHitTesting", "PlaneKitMaps", "PlaneKitStreamFormat", "PlaneKitStream",
                "PlaneKitDiscovery", "PlaneKitShare", "PlaneKitView", "PlaneKitCommandSupport", "PlaneKitCLI",
            ]),

        // MARK: Tests (Swift Testing). Real sensor data is read from ../shared/data.
        .target(name: "PlaneKitTestSupport", dependencies: ["PlaneKitGeometry", "PlaneKitInput", "PlaneKitCloudIO", "CLinuxIO"], path: "Tests/PlaneKitTestSupport"),
        .testTarget(name: "PlaneKitGeometryTests", dependencies: ["PlaneKitGeometry"]),
        .testTarget(name: "PlaneKitInputTests", dependencies: ["PlaneKitInput", "PlaneKitCloudIO", "PlaneKitTestSupport"]),
        .testTarget(name: "PlaneKitEvaluationTests", dependencies: ["PlaneKitEvaluation", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
        .testTarget(name: "PlaneKitSynthesisTests", dependencies: ["PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitEvaluation", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitDetectionTests",
            dependencies: ["PlaneKitCloudIO", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitUnorganizedDetection", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitEvaluation", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitHitTestingTests",
            dependencies: ["PlaneKitHitTesting", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitAnchorsTests",
            dependencies: ["PlaneKitCloudIO", "PlaneKitAnchors", "PlaneKitCommandSupport", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitEvaluation", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitCameraTrackingTests",
            dependencies: ["PlaneKitCloudIO", "PlaneKitCameraTracking", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitMapsTests",
            dependencies: ["PlaneKitMaps", "PlaneKitAnchors", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitStreamTests",
            dependencies: ["PlaneKitCloudIO", "PlaneKitStream", "PlaneKitStreamFormat", "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitMaps", "PlaneKitPictures", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
        .testTarget(name: "PlaneKitDiscoveryTests", dependencies: ["PlaneKitDiscovery", "PlaneKitTestSupport"]),
        .testTarget(
            name: "PlaneKitShareTests",
            dependencies: [
                "PlaneKitShare", "PlaneKitGeometry", "PlaneKitPlanes", "PlaneKitDetection", "PlaneKitHitTesting", "PlaneKitStream", "PlaneKitAnchors", "PlaneKitCameraTracking", "PlaneKitMaps",
                "PlaneKitTestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "PlaneKitViewTests",
            dependencies: ["PlaneKitView", "PlaneKitStream", "PlaneKitSeededRandom", "PlaneKitSynthesis", "PlaneKitSyntheticWalks", "PlaneKitTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

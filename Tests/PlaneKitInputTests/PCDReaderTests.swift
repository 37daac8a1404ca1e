import Testing
import Foundation
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCloudIO

/// The error a read throws, or nil when it succeeds.
func readError(_ path: String, options: ReadOptions = .init()) -> InputError? {
    do {
        _ = try PointCloudReader.read(path: path, options: options)
        return nil
    } catch {
        return error
    }
}

struct PCDReaderTests {
    static func header(fields: String = "x y z", size: String = "4 4 4", type: String = "F F F", count: String = "1 1 1",
                       width: String, height: String = "1", points: String, data: String) -> [UInt8] {
        Array("""
        # .PCD v0.7 - Point Cloud Data file format
        VERSION 0.7
        FIELDS \(fields)
        SIZE \(size)
        TYPE \(type)
        COUNT \(count)
        WIDTH \(width)
        HEIGHT \(height)
        VIEWPOINT 1 2 3 1 0 0 0
        POINTS \(points)
        DATA \(data)

        """.utf8)
    }

    static func floats(_ values: [Float]) -> [UInt8] {
        values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
    }

    @Test func asciiWithNaN() throws {
        let text = Self.header(width: "2", height: "2", points: "4", data: "ascii") + Array("1 2 3\nnan nan nan\n-1.5 0.25 4\n0 0 1e-3\n".utf8)
        let cloud = try PointCloudReader.read(path: try TestFiles.write(text, name: "a.pcd"))
        #expect(cloud.width == 2 && cloud.height == 2)
        #expect(cloud.points[0] == SIMD3(1, 2, 3) && cloud.points[2] == SIMD3(-1.5, 0.25, 4) && cloud.points[3].z == 0.001)
        #expect(cloud.points[1].x.isNaN && cloud.finiteCount == 3)
        #expect(cloud.sensorPose.translation == SIMD3(1, 2, 3))
    }

    @Test func binaryDoubleCoordinatesAndExtraField() throws {
        var body: [UInt8] = []
        for p in [(0.5, -2.0, 7.25), (1e-3, 3.0, -4.0), (9.0, 8.0, 7.0)] {
            body += withUnsafeBytes(of: Float(42).bitPattern.littleEndian, Array.init)  // intensity first
            for v in [p.0, p.1, p.2] { body += withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init) }
        }
        let bytes = Self.header(fields: "intensity x y z", size: "4 8 8 8", type: "F F F F", count: "1 1 1 1",
                                width: "3", points: "3", data: "binary") + body
        let cloud = try PointCloudReader.read(path: try TestFiles.write(bytes, name: "d.pcd"))
        #expect(cloud.points == [SIMD3(0.5, -2, 7.25), SIMD3(Float(1e-3), 3, -4), SIMD3(9, 8, 7)])
        #expect(cloud.colors == nil)
    }

    @Test func truncatedBinary() throws {
        let bytes = Self.header(width: "100", points: "100", data: "binary") + Self.floats(Array(repeating: 1, count: 3 * 99))
        let error = try #require(readError(try TestFiles.write(bytes, name: "t.pcd")))
        #expect(error.problem.contains("truncated"))
        #expect(error.source.hasSuffix("t.pcd"))
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl"))
    func truncatedCompressed() throws {
        // A real compressed file cut short, and one cut inside the two size words.
        let whole = try FileBytes.read(SharedData.path("pcl/frame_20121214T142255.814212.pcd"))
        let header = try PCDHeader.parse(whole, fileSize: whole.count, source: "frame")
        #expect(header.encoding == .binaryCompressed && header.pointSize == 16)
        for cut in [whole.count / 2, header.headerLength + 5] {
            let error = try #require(readError(try TestFiles.write(Array(whole[0..<cut]), name: "c.pcd")))
            #expect(error.problem.contains("truncated"))
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl"))
    func corruptCompressedDataIsAnError() throws {
        // Sizes consistent, LZF stream scrambled: decompression must fail cleanly.
        var whole = try FileBytes.read(SharedData.path("pcl/frame_20121214T142255.814212.pcd"))
        let header = try PCDHeader.parse(whole, fileSize: whole.count, source: "frame")
        for i in (header.headerLength + 8)..<(header.headerLength + 4008) { whole[i] = UInt8(truncatingIfNeeded: i &* 131) }
        let error = readError(try TestFiles.write(whole, name: "scrambled.pcd"))
        #expect(error?.problem.hasPrefix("corrupt binary_compressed data: LZF") == true)
    }

    @Test func compressedSizeDisagreesWithPoints() throws {
        var bytes = Self.header(width: "10", points: "10", data: "binary_compressed")
        bytes += [16, 0, 0, 0, 100, 0, 0, 0] + Array(repeating: 0, count: 16)  // 100 ≠ 10 × 12
        let error = try #require(readError(try TestFiles.write(bytes, name: "s.pcd")))
        #expect(error.problem.contains("uncompressed size 100"))
    }

    @Test(arguments: ["10000000000", "1000000000"])
    func hugeClaimIsAnErrorNotACrash(points: String) throws {
        // PCL 1.13's PCDReader aborts the process (std::bad_alloc) on this file.
        var bytes = Self.header(width: points, points: points, data: "binary")
        bytes += Array(repeating: 0, count: max(0, 200 - bytes.count))
        #expect(bytes.count == 200)
        let error = try #require(readError(try TestFiles.write(bytes, name: "huge.pcd")))
        #expect(error.problem.contains(points) && error.problem.contains("allowed"))
    }

    @Test func pointsNotWidthTimesHeight() throws {
        let bytes = Self.header(width: "4", height: "3", points: "11", data: "binary") + Self.floats(Array(repeating: 0, count: 36))
        let error = try #require(readError(try TestFiles.write(bytes, name: "p.pcd")))
        #expect(error.problem == "POINTS 11 is not WIDTH × HEIGHT (4 × 3)")
    }

    @Test func missingZField() throws {
        let bytes = Self.header(fields: "x y w", width: "1", points: "1", data: "binary") + Self.floats([1, 2, 3])
        #expect(readError(try TestFiles.write(bytes, name: "z.pcd"))?.problem.contains("no z field") == true)
    }

    @Test func garbageHeader() throws {
        let noise = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        #expect(readError(try TestFiles.write(noise, name: "g.pcd")) != nil)
        let text = Array("VERSION 0.7\nFIELDS x y z\nhello world\n".utf8)
        #expect(readError(try TestFiles.write(text, name: "h.pcd"))?.problem.contains("unexpected 'hello'") == true)
        let bad = Self.header(width: "1", points: "1", data: "zipped")
        #expect(readError(try TestFiles.write(bad, name: "e.pcd"))?.problem.contains("unknown DATA encoding") == true)
    }

    @Test func fileSystemProblems() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        #expect(readError(directory.appendingPathComponent("missing.pcd").path)?.problem == "no such file")
        let folder = directory.appendingPathComponent("folder.pcd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(readError(folder.path)?.problem == "is a directory, not a file")
        #expect(readError(try TestFiles.write([], name: "empty.pcd"))?.problem == "file is empty")
    }

    @Test func writerRoundTrip() throws {
        var points = ContiguousArray<SIMD3<Float>>()
        var colors = ContiguousArray<SIMD3<UInt8>>()
        for v in 0..<3 {
            for u in 0..<4 {
                points.append(u == v ? SIMD3(repeating: .nan) : SIMD3(Float(u) * 0.1, Float(v) * -0.2, 1 + Float(u + v)))
                colors.append(SIMD3(UInt8(u * 60), UInt8(v * 100), 7))
            }
        }
        let pose = Transform(rotation: Quaternion(angle: 0.5, axis: SIMD3(0, 1, 0)), translation: SIMD3(1, -2, 0.5))
        let cloud = try PointCloud(width: 4, height: 3, points: points, colors: colors, sensorPose: pose)
        let path = try TestFiles.path("w.pcd")
        try PCDWriter.write(cloud, to: path)
        let back = try PointCloudReader.read(path: path)
        #expect(back.width == 4 && back.height == 3)
        #expect(back.finiteCount == 9)
        for i in points.indices where points[i].isFinite { #expect(back.points[i] == points[i]) }
        #expect(back.colors == colors)
        #expect(back.sensorPose.isApproximatelyEqual(to: pose, tolerance: 1e-5))
        // Without colours the file has only x y z.
        try PCDWriter.write(PointCloud(unorganized: [SIMD3(1, 2, 3)]), to: path)
        let plain = try PointCloudReader.read(path: path)
        #expect(plain.points == [SIMD3(1, 2, 3)] && plain.colors == nil && !plain.isOrganized)
    }
}

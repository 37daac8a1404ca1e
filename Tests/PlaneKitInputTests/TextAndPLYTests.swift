import Testing
import Foundation
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCloudIO

struct XYZReaderTests {
    @Test func commentsBlankLinesExtraColumnsAndCommas() throws {
        let text = "# scan\n\n1 2 3\n  4\t5 6 0.5 0.5 0.5  # normal follows\r\n7,8.5,-9e-1\n\n# end\n-0 1e2 .5"
        let cloud = try PointCloudReader.read(path: try TestFiles.write(Array(text.utf8), name: "s.xyz"))
        #expect(cloud.points == [SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8.5, -0.9), SIMD3(0, 100, 0.5)])
        #expect(cloud.height == 1 && cloud.colors == nil)
    }

    @Test func nanNamesTheLine() throws {
        let path = try TestFiles.write(Array("1 2 3\n# c\n4 nan 6\n".utf8), name: "n.txt")
        let error = try #require(readError(path))
        #expect(error.source == "\(path) line 3")
        #expect(error.problem.contains("not a finite number"))
    }

    @Test func badLinesNameTheLine() throws {
        let notNumber = try #require(readError(try TestFiles.write(Array("1 2 3\n1 2 x3\n".utf8), name: "b.xyz")))
        #expect(notNumber.source.hasSuffix("line 2") && notNumber.problem == "'x3' is not a number")
        let short = try #require(readError(try TestFiles.write(Array("1 2 3\n\n\n1 2\n".utf8), name: "c.xyz")))
        #expect(short.source.hasSuffix("line 4") && short.problem == "expected x y z, found 2 numbers")
        let infinite = try #require(readError(try TestFiles.write(Array("inf 0 0".utf8), name: "i.xyz")))
        #expect(infinite.source.hasSuffix("line 1"))
    }
}

struct PLYReaderTests {
    @Test func asciiWithFacesAndColours() throws {
        let text = """
        ply
        format ascii 1.0
        comment made by hand
        element vertex 3
        property float x
        property float y
        property float z
        property uchar red
        property uchar green
        property uchar blue
        element face 1
        property list uchar int vertex_indices
        end_header
        0 0 0 255 0 0
        1 0.5 -2 0 255 0
        0 1 3.25 0 0 255
        3 0 1 2

        """
        let cloud = try PointCloudReader.read(path: try TestFiles.write(Array(text.utf8), name: "a.ply"))
        #expect(cloud.points == [SIMD3(0, 0, 0), SIMD3(1, 0.5, -2), SIMD3(0, 1, 3.25)])
        #expect(cloud.colors == [SIMD3(255, 0, 0), SIMD3(0, 255, 0), SIMD3(0, 0, 255)])
    }

    /// A binary file with a face element *before* the vertices and doubles for coordinates.
    static func binaryPLY(vertexCount: Int, faces: Bool = true, truncateBy: Int = 0, bigEndian: Bool = false) -> [UInt8] {
        func stored<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init)
        }
        var header = "ply\nformat binary_\(bigEndian ? "big" : "little")_endian 1.0\n"
        if faces { header += "element face 2\nproperty list uchar uint vertex_indices\nproperty short flags\n" }
        header += "element vertex \(vertexCount)\nproperty double x\nproperty int16 y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"
        var body: [UInt8] = []
        if faces {
            body += [3] + [0, 1, 2].flatMap { stored(UInt32($0)) } + stored(Int16(9))
            body += [4] + [0, 1, 2, 0].flatMap { stored(UInt32($0)) } + [0xFF, 0xFF]
        }
        for i in 0..<min(vertexCount, 3) {
            body += stored((Double(i) + 0.5).bitPattern)
            body += stored(Int16(-i))
            body += stored(Float(i * 2).bitPattern)
            body += [UInt8(i), UInt8(10 * i), 200]
        }
        return Array(header.utf8) + body.dropLast(truncateBy)
    }

    @Test func binaryLittleEndianSkipsListsBeforeVertices() throws {
        let cloud = try PointCloudReader.read(path: try TestFiles.write(Self.binaryPLY(vertexCount: 3), name: "b.ply"))
        #expect(cloud.points == [SIMD3(0.5, 0, 0), SIMD3(1.5, -1, 2), SIMD3(2.5, -2, 4)])
        #expect(cloud.colors == [SIMD3(0, 0, 200), SIMD3(1, 10, 200), SIMD3(2, 20, 200)])
    }

    @Test func truncatedAndAbsurdCounts() throws {
        let truncated = try #require(readError(try TestFiles.write(Self.binaryPLY(vertexCount: 3, truncateBy: 1), name: "t.ply")))
        #expect(truncated.problem.contains("truncated"))
        let claims = try #require(readError(try TestFiles.write(Self.binaryPLY(vertexCount: 1_000_000_000), name: "h.ply")))
        #expect(claims.problem.contains("1000000000"))
        let many = try #require(readError(try TestFiles.write(Self.binaryPLY(vertexCount: 1000), name: "m.ply")))
        #expect(many.problem.contains("truncated"))
    }

    /// binary_big_endian, the other half of the format: the same file stored big-endian reads
    /// to the same cloud (doubles, signed shorts, floats, and list counts and items skipped).
    @Test func binaryBigEndianReadsLikeLittleEndian() throws {
        let big = try PointCloudReader.read(path: try TestFiles.write(Self.binaryPLY(vertexCount: 3, bigEndian: true), name: "be.ply"))
        #expect(big.points == [SIMD3(0.5, 0, 0), SIMD3(1.5, -1, 2), SIMD3(2.5, -2, 4)])
        #expect(big.colors == [SIMD3(0, 0, 200), SIMD3(1, 10, 200), SIMD3(2, 20, 200)])
        let truncated = readError(try TestFiles.write(Self.binaryPLY(vertexCount: 3, truncateBy: 1, bigEndian: true), name: "bet.ply"))
        #expect(truncated?.problem.contains("truncated") == true)
    }

    @Test func nanVertexAndMissingCoordinates() throws {
        let nan = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n4 nan 6\n"
        #expect(readError(try TestFiles.write(Array(nan.utf8), name: "n.ply"))?.problem == "vertex 1 has a coordinate that is not a finite number")
        let noZ = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n1 2\n"
        #expect(readError(try TestFiles.write(Array(noZ.utf8), name: "z.ply"))?.problem.contains("no scalar x, y and z") == true)
    }

    @Test func writerRoundTrip() throws {
        let points: ContiguousArray<SIMD3<Float>> = [SIMD3(1, 2, 3), SIMD3(repeating: .nan), SIMD3(-0.25, 1e-3, 7)]
        let colors: ContiguousArray<SIMD3<UInt8>> = [SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(250, 0, 128)]
        let path = try TestFiles.path("w.ply")
        try PLYWriter.write(try PointCloud(width: 3, height: 1, points: points, colors: colors), to: path)
        let back = try PointCloudReader.read(path: path)
        #expect(back.points == [points[0], points[2]])  // PLY keeps only finite points
        #expect(back.colors == [colors[0], colors[2]])
        try PLYWriter.write(PointCloud(unorganized: [SIMD3(5, 6, 7)]), to: path)
        let plain = try PointCloudReader.read(path: path)
        #expect(plain.points == [SIMD3(5, 6, 7)] && plain.colors == nil)
    }
}

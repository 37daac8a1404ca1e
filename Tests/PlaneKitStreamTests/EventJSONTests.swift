import Foundation
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

@Suite struct EventJSONTests {
    /// The hand-written event lines are byte for byte what JSONEncoder with sorted keys makes of
    /// the session's Encodable types: planes, objects (snapping ones too), mapping, hits.
    @Test func eventLinesMatchJSONEncoder() throws {
        let synth = SyntheticStream()
        var processor = StreamProcessor()
        var events: [StreamEvent] = []
        for i in 0..<4 {
            try processor.handle(synth.record(i), number: 1, into: &events)
            if i == 0 { try processor.handle(.tap(TapRecord(pixel: synth.floorPixel(0), name: "a \"quoted\"\tname")), number: 2, into: &events) }
        }
        try processor.handle(.raycast(RaycastRecord(source: .pixel(SIMD2(160, 200)), target: .any)), number: 3, into: &events)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = JSONLineWriter()
        var sessionEvents = 0
        for event in events {
            line.write(event)
            switch event {
            case .session(let e):
                #expect(line.text == String(decoding: try encoder.encode(e), as: UTF8.self) + "\n")
                sessionEvents += 1
            case .hit(let e):
                let hits = String(decoding: try encoder.encode(e.hits), as: UTF8.self)
                #expect(!e.hits.isEmpty)
                #expect(line.text == #"{"event":"hit","frame":3,"hits":\#(hits),"timestamp":0.1}"# + "\n")
            case .focus(let e):
                let object = try JSONSerialization.jsonObject(with: Data(line.bytes)) as! [String: Any]
                #expect(object["state"] as? String == e.state.rawValue)
                #expect(object["frame"] as? Int == e.frame)
            case .camera(let e):
                let object = try JSONSerialization.jsonObject(with: Data(line.bytes)) as! [String: Any]
                #expect(object["tracking"] as? String == "normal")
                #expect(object["frame"] as? Int == e.frame)
                #expect(((object["transform"] as? [String: Any])?["columnMajor"] as? [Double])?.map(Float.init) == e.transform.columnMajor)
            case .error, .map, .peer:
                Issue.record("no errors, map or peer events expected")
            }
        }
        #expect(sessionEvents >= 4)
    }

    /// JSON has no NaN: a number that is not finite is written `null` and the line still parses.
    @Test func numbersThatAreNotFiniteBecomeNull() throws {
        let anchor = ObjectAnchor(identifier: PlacedObjectIdentifier(7), anchorNumber: UInt64.max, name: "x", size: SIMD3(.nan, 1, .infinity),
                                  transform: .identity, planeIdentifier: nil, alignment: .any)
        var line = JSONLineWriter()
        line.write(.session(SessionEvent(frame: 2, timestamp: .nan, kind: .objectAdded(anchor))))
        #expect(line.text == #"{"event":"objectAdded","frame":2,"object":{"alignment":"any","anchorNumber":18446744073709551615,"identifier":"object-7","name":"x","size":[null,1,null],"transform":{"columnMajor":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}},"timestamp":null}"# + "\n")
        #expect(try JSONSerialization.jsonObject(with: Data(line.bytes)) is [String: Any])
        line.write(.error(StreamErrorEvent(frame: -1, timestamp: 0, record: 3, message: "bad \"x\"\n")))
        #expect(line.text == #"{"event":"error","frame":-1,"message":"bad \"x\"\n","record":3,"timestamp":0}"# + "\n")
    }
}

import FoundationEssentials

/// Output paths for several inputs: `{name}` in a path is replaced by the input's base name;
/// without it, and with more than one input, `-name` goes before the extension so that no input
/// overwrites another's output.
struct OutputTemplates {
    let labelsTemplate: String?
    let pngTemplate: String?
    let plyTemplate: String?
    let meshTemplate: String?
    let pcdTemplate: String?
    let inputCount: Int

    init(labels: String?, png: String?, ply: String?, mesh: String? = nil, pcd: String? = nil, inputCount: Int) {
        labelsTemplate = labels
        pngTemplate = png
        plyTemplate = ply
        meshTemplate = mesh
        pcdTemplate = pcd
        self.inputCount = inputCount
    }

    func labels(for name: String) -> String? { labelsTemplate.map { path($0, name: name) } }
    func png(for name: String) -> String? { pngTemplate.map { path($0, name: name) } }
    func ply(for name: String) -> String? { plyTemplate.map { path($0, name: name) } }
    func mesh(for name: String) -> String? { meshTemplate.map { path($0, name: name) } }
    func pcd(for name: String) -> String? { pcdTemplate.map { path($0, name: name) } }

    private func path(_ template: String, name: String) -> String {
        if template.contains("{name}") {
            return template.split(separator: "{name}", omittingEmptySubsequences: false).joined(separator: name)
        }
        guard inputCount > 1 else { return template }
        // Split at the last dot of the last path component, keeping a relative path relative.
        let slash = template.lastIndex(of: "/")
        guard let dot = template.lastIndex(of: "."), slash.map({ $0 < dot }) ?? true else {
            return "\(template)-\(name)"
        }
        return "\(template[..<dot])-\(name)\(template[dot...])"
    }
}

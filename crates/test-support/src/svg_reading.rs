//! Reading back an SVG written by `grid_core::svg`, for tests: parsed as XML by roxmltree
//! (so a file that is not well-formed fails), then the frames of every sprite, its fill per
//! frame, the walls and the marks, taken from the attributes the writer documents. Shared
//! by the SVG tests of every crate, so that all of them read the files the same way.

#![allow(clippy::unwrap_used, clippy::expect_used)]

/// What a test needs to know about one picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// `(width, height)` of the view box, in cells.
    pub size: (usize, usize),
    /// The `data-frames` attribute.
    pub frames: usize,
    /// Wall cells, as (row, col), from the walls path.
    pub walls: Vec<(usize, usize)>,
    /// Mark cells with their labels, in document order.
    pub marks: Vec<((usize, usize), Option<String>)>,
    /// Per sprite, in drawing order.
    pub sprites: Vec<SpriteTrack>,
}

/// One sprite as written.
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteTrack {
    /// Its label.
    pub label: String,
    /// Its base place, (row, col): what a viewer without animation shows.
    pub base: (usize, usize),
    /// Its place on every frame, (row, col).
    pub places: Vec<(usize, usize)>,
    /// Its base fill.
    pub base_fill: String,
    /// Its fill on every frame (all the base fill when not animated).
    pub fills: Vec<String>,
}

fn pair(text: &str) -> (usize, usize) {
    let mut it = text.split_whitespace().map(|v| v.parse::<usize>().unwrap());
    let (col, row) = (it.next().unwrap(), it.next().unwrap());
    assert!(it.next().is_none(), "two numbers in {text:?}");
    (row, col)
}

fn key_times(node: roxmltree::Node) -> Vec<f64> {
    node.attribute("keyTimes")
        .unwrap()
        .split(';')
        .map(|t| t.trim().parse::<f64>().unwrap())
        .collect()
}

/// Parses `text` and checks the invariants every picture keeps (one value and one key time
/// per frame, increasing key times from 0, base attributes equal to the first frame).
///
/// # Panics
/// When the text is not well-formed XML or breaks one of those invariants.
pub fn read(text: &str) -> Drawing {
    let doc = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    // The grid spans 0..width, 0..height, inside a frame of a quarter cell.
    assert_eq!(view[..2], [-0.25, -0.25]);
    let size = ((view[2] - 0.5) as usize, (view[3] - 0.5) as usize);
    let floor = root
        .children()
        .find(|n| n.attribute("class") == Some("floor"))
        .unwrap();
    let attr = |name| floor.attribute(name).unwrap().parse::<usize>().unwrap();
    assert_eq!(
        (attr("width"), attr("height")),
        size,
        "the floor covers the grid"
    );
    let frames: usize = root.attribute("data-frames").unwrap().parse().unwrap();
    let class = |n: &roxmltree::Node, c: &str| n.attribute("class") == Some(c);
    let mut walls = Vec::new();
    if let Some(path) = root.descendants().find(|n| class(n, "walls")) {
        let d = path.attribute("d").unwrap();
        for run in d.split('z').map(str::trim).filter(|r| !r.is_empty()) {
            // M{col} {row}h{len}v1h-{len}
            let run = run.strip_prefix('M').unwrap();
            let (start, rest) = run.split_once('h').unwrap();
            let (len, back) = rest.split_once("v1h-").unwrap();
            assert_eq!(len, back, "a run closes on itself");
            let (row, col) = pair(start);
            let len: usize = len.parse().unwrap();
            walls.extend((col..col + len).map(|c| (row, c)));
        }
    }
    walls.sort_unstable();
    let mut marks = Vec::new();
    if let Some(group) = root.descendants().find(|n| class(n, "marks")) {
        let children: Vec<_> = group.children().filter(|n| n.is_element()).collect();
        for (i, node) in children.iter().enumerate() {
            if node.tag_name().name() != "rect" {
                continue;
            }
            let at = |name| {
                node.attribute(name)
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
                    .floor() as usize
            };
            let label = children
                .get(i + 1)
                .filter(|n| n.tag_name().name() == "text")
                .map(|n| n.text().unwrap_or("").to_owned());
            marks.push(((at("y"), at("x")), label));
        }
    }
    let mut sprites = Vec::new();
    for group in root.descendants().filter(|n| class(n, "sprite")) {
        let base = group
            .attribute("transform")
            .unwrap()
            .strip_prefix("translate(")
            .unwrap()
            .strip_suffix(')')
            .unwrap();
        let base = pair(base);
        let motion = group
            .children()
            .find(|n| n.tag_name().name() == "animateTransform")
            .unwrap();
        assert_eq!(motion.attribute("calcMode"), Some("discrete"));
        let places: Vec<_> = motion
            .attribute("values")
            .unwrap()
            .split(';')
            .map(pair)
            .collect();
        let times = key_times(motion);
        assert_eq!(places.len(), frames, "one place per frame");
        assert_eq!(times.len(), frames, "one key time per frame");
        assert_eq!(times[0], 0.0);
        assert!(times.windows(2).all(|w| w[0] < w[1]) && times[frames - 1] < 1.0);
        assert_eq!(places[0], base, "the static picture is the first frame");
        let shape = group
            .children()
            .find(|n| matches!(n.tag_name().name(), "circle" | "rect"))
            .unwrap();
        let base_fill = shape.attribute("fill").unwrap().to_owned();
        let fills = match shape.children().find(|n| n.tag_name().name() == "animate") {
            Some(animate) => {
                assert_eq!(animate.attribute("attributeName"), Some("fill"));
                assert_eq!(key_times(animate), times);
                let fills: Vec<String> = animate
                    .attribute("values")
                    .unwrap()
                    .split(';')
                    .map(str::to_owned)
                    .collect();
                assert_eq!(fills[0], base_fill);
                fills
            }
            None => vec![base_fill.clone(); frames],
        };
        assert_eq!(fills.len(), frames, "one fill per frame");
        let label = group
            .children()
            .find(|n| n.tag_name().name() == "text")
            .and_then(|n| n.text())
            .unwrap_or("")
            .to_owned();
        sprites.push(SpriteTrack {
            label,
            base,
            places,
            base_fill,
            fills,
        });
    }
    Drawing {
        size,
        frames,
        walls,
        marks,
        sprites,
    }
}

/// A file in `dir` for the picture of this thread's fuzz runs (tests run in parallel, so
/// each thread has its own), removed if an earlier run left it.
pub fn scratch_file(dir: &std::path::Path) -> std::path::PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let id: String = thread.chars().filter(char::is_ascii_digit).collect();
    let path = dir.join(format!("fuzz-{id}.svg"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The picture of the first case, when a run saved one at `path`, is well-formed and keeps
/// the writer's invariants.
///
/// # Panics
/// When it does not (the point of the check).
pub fn check_saved(path: Option<&std::path::Path>) {
    if let Some(text) = path.and_then(|p| std::fs::read_to_string(p).ok()) {
        let drawing = read(&text);
        assert!(drawing.frames >= 1, "at least the start");
    }
}

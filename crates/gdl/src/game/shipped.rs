//! [`SHIPPED`]: the games shipped in the crate's `games/` folder, as text, so that a program can
//! load them without knowing where the crate's files are.

/// Every shipped game: its name (the file name without `.kif`) and its description, in
/// alphabetical order. Load one with [`Loader::text`](crate::Loader::text).
pub const SHIPPED: &[(&str, &str)] = &[
    ("amazons", include_str!("../../games/amazons.kif")),
    ("awale_mini", include_str!("../../games/awale_mini.kif")),
    (
        "backgammon_mini",
        include_str!("../../games/backgammon_mini.kif"),
    ),
    ("bomberman", include_str!("../../games/bomberman.kif")),
    ("breakthrough", include_str!("../../games/breakthrough.kif")),
    (
        "cant_stop_mini",
        include_str!("../../games/cant_stop_mini.kif"),
    ),
    ("checkers", include_str!("../../games/checkers.kif")),
    ("chess", include_str!("../../games/chess.kif")),
    (
        "chess_groundable",
        include_str!("../../games/chess_groundable.kif"),
    ),
    (
        "chinese_checkers3",
        include_str!("../../games/chinese_checkers3.kif"),
    ),
    ("connect4", include_str!("../../games/connect4.kif")),
    ("dice_duel", include_str!("../../games/dice_duel.kif")),
    ("hex", include_str!("../../games/hex.kif")),
    ("kaseklau", include_str!("../../games/kaseklau.kif")),
    (
        "matching_pennies",
        include_str!("../../games/matching_pennies.kif"),
    ),
    ("montyhall", include_str!("../../games/montyhall.kif")),
    ("orchard", include_str!("../../games/orchard.kif")),
    ("othello", include_str!("../../games/othello.kif")),
    ("pacman", include_str!("../../games/pacman.kif")),
    (
        "pickomino_mini",
        include_str!("../../games/pickomino_mini.kif"),
    ),
    ("rps3", include_str!("../../games/rps3.kif")),
    ("tictactoe", include_str!("../../games/tictactoe.kif")),
    ("tron", include_str!("../../games/tron.kif")),
    ("yahtzee_mini", include_str!("../../games/yahtzee_mini.kif")),
];

/// The description of the shipped game `name` (`"tictactoe"`), if there is one. A `const fn`, so
/// that tables of games can be built at compile time.
///
/// ```
/// let text = gdl::shipped("tictactoe").expect("shipped");
/// let game = gdl::Loader::text(text).name("tictactoe").load()?;
/// assert_eq!(game.roles(), ["xplayer", "oplayer"]);
/// assert!(gdl::shipped("go").is_none());
/// # Ok::<(), gdl::GdlError>(())
/// ```
pub const fn shipped(name: &str) -> Option<&'static str> {
    let mut i = 0;
    while i < SHIPPED.len() {
        if same(SHIPPED[i].0.as_bytes(), name.as_bytes()) {
            return Some(SHIPPED[i].1);
        }
        i += 1;
    }
    None
}

/// Byte-wise equality, in a `const fn`.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::SHIPPED;

    /// A game added to `games/` and not to [`SHIPPED`] would be missing for every program that
    /// loads games by name (the reproductions, the GGP player's tests).
    #[test]
    fn every_file_of_the_games_folder_is_shipped_in_alphabetical_order() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("the games folder")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter_map(|name| name.strip_suffix(".kif").map(str::to_string))
            .collect();
        files.sort();
        let shipped: Vec<&str> = SHIPPED.iter().map(|(name, _)| *name).collect();
        assert_eq!(shipped, files);
    }
}

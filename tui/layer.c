/*
 * The ncurses browser (DESIGN.md, tui/) is not written yet; this keeps the layer's library
 * non-empty so the link line stays the same when it arrives.
 */
typedef int lineup_tui_placeholder;

/* Placeholder so the tui layer library is never empty; removed once the layer has code. */
typedef int lineup_tui_placeholder;

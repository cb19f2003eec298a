/* Placeholder so the dwarf layer library is never empty; removed once the layer has code. */
typedef int lineup_dwarf_placeholder;

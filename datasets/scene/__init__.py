"""Building blocks of the table-scene renderer (`datasets.render`)."""

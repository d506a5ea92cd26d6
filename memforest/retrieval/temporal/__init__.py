"""The temporal read path (design 3.1): parse a question into subject, attribute, operator and
anchor; find the subject's states of that attribute; resolve the anchor to a time; answer from the
interval next to it or holding it; rank that answer first with its neighbouring states."""

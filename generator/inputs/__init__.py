"""Stage 1, the inputs: the user's files read safely (``files``: regular files
only, decoded strictly) and the .proto files compiled by protoc
(``compile``) into a FileDescriptorSet.

Imports only the foundations (``errors``, ``settings``); every package above
reads the user's files through it. Nothing is re-exported here.
"""

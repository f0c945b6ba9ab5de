# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.
